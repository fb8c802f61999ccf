//! Whisper's text normalisers, as whisper-normalizer 0.1.15 (`OpenAI`
//! Whisper's `whisper/normalizers`) runs them on `CPython` 3.11: what ASR
//! evaluations apply to both sides before WER.
//!
//! * [`basic`]: `BasicTextNormalizer` (any language): lower-case, drop
//!   bracketed and parenthesised phrases, replace marks, symbols and
//!   punctuation by spaces (optionally dropping diacritics), collapse
//!   whitespace.

pub mod basic;
