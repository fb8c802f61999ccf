//! Where in a JSON-lines file Arrow's reading error lies: the line and what
//! is wrong there, read again after Arrow has failed (its own messages count
//! lines per chunk, or name none). Used wherever a JSON file is read: the
//! inputs, SQL's path tables, `mteval sql` and `score`.

use std::collections::HashMap;

use super::stores::is_url;

/// Where in the local JSON-lines file `path` Arrow's error `msg` comes from,
/// as an error naming the file, the line (1-based) and what is wrong there;
/// `None` for a URL, or when no line explains it. Arrow's own messages count
/// lines from the start of each chunk it parses, or name no line at all, so
/// this reads the file again, only after Arrow has failed:
/// - the first line that is not a JSON value (column included);
/// - else the first line where a field holds another JSON type than on an
///   earlier line (a number where other lines have a string, a list where
///   they have a number, ...): Arrow infers one type per column and cannot
///   read the other. When `msg` names the field ("whilst decoding field
///   'x'"), only that field is looked at.
///
/// Blank lines are skipped, as Arrow does.
#[must_use]
pub fn json_error_location(path: &str, msg: &str) -> Option<anyhow::Error> {
    use std::io::BufRead;
    if is_url(path) {
        return None;
    }
    let local = path.strip_prefix("file://").unwrap_or(path);
    let field = msg.split("whilst decoding field '").nth(1).and_then(|r| r.split('\'').next());
    let mut kinds: HashMap<String, (&'static str, usize)> = HashMap::new();
    let mut conflict: Option<anyhow::Error> = None;
    let file = std::io::BufReader::new(std::fs::File::open(local).ok()?);
    for (i, line) in file.split(b'\n').enumerate() {
        let line = line.ok()?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let value = match serde_json::from_slice::<serde_json::Value>(&line) {
            Ok(v) => v,
            Err(e) => {
                let msg = e.to_string();
                let what = msg.rfind(" at line ").map_or(msg.as_str(), |k| &msg[..k]);
                let bom = if i == 0 && line.starts_with(b"\xEF\xBB\xBF") {
                    " (the file starts with a UTF-8 byte-order mark, which JSON does not allow: save it without one)"
                } else {
                    ""
                };
                return Some(anyhow::anyhow!(
                    "{path}: line {} is not valid JSON, column {}: {what}{bom}",
                    i + 1,
                    e.column()
                ));
            }
        };
        if conflict.is_some() {
            continue; // a syntax error further on is still the first thing to fix
        }
        let mut leaves = Vec::new();
        json_kinds(&value, String::new(), &mut leaves);
        for (at, kind) in leaves {
            let top = at.split(['.', '[']).next().unwrap_or("");
            if field.is_some_and(|f| f != top) {
                continue;
            }
            if at.is_empty() && kind != "an object" {
                conflict = Some(anyhow::anyhow!("{path}: line {} is {kind}; every line must be a JSON object", i + 1));
                break;
            }
            match kinds.get(&at) {
                None => {
                    kinds.insert(at, (kind, i + 1));
                }
                Some(&(first, first_line)) if first != kind => {
                    let hint = if [first, kind].contains(&"a number") && [first, kind].contains(&"a string") {
                        " (quote the numbers)"
                    } else {
                        ""
                    };
                    conflict = Some(anyhow::anyhow!(
                        "{path}: line {}: field '{at}' is {kind}, but {first} on line {first_line}; \
                         a JSON field must have one type on every line{hint}",
                        i + 1
                    ));
                    break;
                }
                Some(_) => {}
            }
        }
    }
    conflict
}

/// The JSON type of every non-null value in `v`, by path: `a.b` for object
/// keys, `a[]` for list elements; the top-level object has the empty path.
fn json_kinds(v: &serde_json::Value, at: String, out: &mut Vec<(String, &'static str)>) {
    use serde_json::Value;
    let kind = match v {
        Value::Null => return,
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(items) => {
            for item in items {
                json_kinds(item, format!("{at}[]"), out);
            }
            "a list"
        }
        Value::Object(map) => {
            for (k, item) in map {
                json_kinds(item, if at.is_empty() { k.clone() } else { format!("{at}.{k}") }, out);
            }
            "an object"
        }
    };
    out.push((at, kind));
}
