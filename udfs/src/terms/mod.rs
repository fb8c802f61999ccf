//! Terminology match accuracy's SQL functions (the CBS `match_accuracy`
//! rewrite): the per-row `term_match`, `term_match_lemmatized`, their corpus
//! aggregates, and the reading of the terms and lemmas columns (`term_cols`).

pub mod corpus_term_accuracy;
pub mod corpus_term_accuracy_lemmatized;
pub mod term_cols;
pub mod term_match;
pub mod term_match_lemmatized;
