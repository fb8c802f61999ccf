//! Line-aligned plain-text files as sacrebleu and cer read them: UTF-8
//! (an invalid byte reported with its line), `.gz` decompressed, `-` for
//! standard input, references split at tabs with `--num-refs`.

use std::path::Path;

use anyhow::{Context, Result, bail};

/// The path that names standard input (as sacrebleu reads a system there).
pub const STDIN: &str = "-";

/// Reads `path` as UTF-8 text (`-`: standard input); an invalid byte is
/// reported with its line.
/// A `.gz` file is decompressed first, as sacrebleu's `smart_open` does.
///
/// # Errors
/// A file that cannot be opened or decompressed; an invalid UTF-8 byte, naming its line.
pub fn read_utf8(path: &Path) -> Result<String> {
    let mut bytes = if path == Path::new(STDIN) {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut b).context("cannot read standard input")?;
        b
    } else {
        std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz")) {
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&bytes[..]), &mut plain)
            .with_context(|| format!("{}: not a valid gzip file", path.display()))?;
        bytes = plain;
    }
    String::from_utf8(bytes).map_err(|e| {
        #[allow(clippy::naive_bytecount, reason = "counted once, for an error message; not worth the bytecount crate")]
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        anyhow::anyhow!("{}: line {line} is not valid UTF-8", path.display())
    })
}

/// The lines of a text file's contents as sacrebleu's command line reads
/// them: split at `\n` only, then each line `rstrip()`ped (Python's
/// whitespace, so `\r`, tabs, U+3000 and U+001C go too). Only chrF with
/// `space:yes` sees the difference; every other metric splits or drops
/// whitespace itself.
pub fn split_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    // A final `\n` ends the last line; it does not start another.
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n').map(mteval_kernels::py::text::py_rstrip).collect()
}

/// The lines of `text` as Python reads a file in text mode (universal
/// newlines): `\n`, `\r\n` and a lone `\r` each end one, without their ends;
/// a final line break starts no further line.
pub fn universal_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match rest.find(['\n', '\r']) {
            Some(i) if rest[i..].starts_with("\r\n") => (&rest[..i], &rest[i + 2..]),
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, ""),
        };
        rest = next;
        Some(line)
    })
}

/// The systems sacrebleu reads from standard input (`sacrebleu REF < SYS`):
/// lines split with Python's universal newlines (`\n`, `\r\n` and a lone
/// `\r` each end one), each line `rstrip()`ped and split at tabs into one
/// sentence per system, as many systems as the first line has fields; the
/// sentences of the later lines are `rstrip()`ped too (the first line's are
/// not, as sacrebleu does). `name` names standard input in errors.
///
/// # Errors
/// A line with another number of fields than the first, naming it.
pub fn stdin_systems(text: &str, name: &str) -> Result<Vec<Vec<String>>> {
    use mteval_kernels::py::text::py_rstrip;
    let lines: Vec<&str> = universal_lines(text).collect();
    // An empty input is one empty line, as `readline()` gives ''.
    let first: Vec<&str> = py_rstrip(lines.first().copied().unwrap_or("")).split('\t').collect();
    let mut systems: Vec<Vec<String>> = first.iter().map(|s| vec![(*s).to_owned()]).collect();
    for (i, line) in lines.iter().enumerate().skip(1) {
        let fields: Vec<&str> = py_rstrip(line).split('\t').collect();
        if fields.len() != systems.len() {
            bail!(
                "{name}: line {}: {} tab-separated systems where line 1 has {} (each line holds one sentence of \
                 every system, separated by tabs, as sacrebleu reads standard input)",
                i + 1,
                fields.len(),
                systems.len()
            );
        }
        for (s, f) in systems.iter_mut().zip(fields) {
            s.push(py_rstrip(f).to_owned());
        }
    }
    Ok(systems)
}

/// Reads `path` as lines ([`split_lines`]), each its own string.
///
/// # Errors
/// As [`read_utf8`].
pub fn read_lines(path: &Path) -> Result<Vec<String>> {
    Ok(split_lines(&read_utf8(path)?).into_iter().map(str::to_owned).collect())
}

/// The `n` tab-separated references of every line (sacrebleu's
/// `--num-refs`: split at the first `n - 1` tabs), as `n` streams.
///
/// # Errors
/// A line with fewer than `n` references, naming the file and line.
pub fn split_refs<'a>(path: &Path, lines: Vec<&'a str>, n: usize) -> Result<Vec<Vec<&'a str>>> {
    if n == 1 {
        return Ok(vec![lines]);
    }
    let mut streams: Vec<Vec<&str>> = vec![Vec::with_capacity(lines.len()); n];
    for (i, l) in lines.iter().enumerate() {
        let fields: Vec<&str> = l.splitn(n, '\t').collect();
        if fields.len() != n {
            bail!("{}: line {}: expected {n} tab-separated references, found {}", path.display(), i + 1, fields.len());
        }
        for (s, x) in streams.iter_mut().zip(fields) {
            s.push(x);
        }
    }
    Ok(streams)
}
