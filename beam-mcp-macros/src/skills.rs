//! `beam_mcp::skills!("skills")`: a folder of agent skills embedded at compile time. Each folder
//! under it holding a `SKILL.md` is a skill (nested ones too); its frontmatter is read here
//! (the YAML a frontmatter needs: scalars, quoted strings, block scalars, lists and maps of
//! scalars) into JSON and checked against the Agent Skills rules, and every file of its folder
//! is included with `include_bytes!`, so cargo rebuilds when one changes.

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::LitStr;

/// The expansion of `skills!(FOLDER)`: `const { &[SkillDef, ..] }`.
///
/// `calling_file` is the source file the macro is called from, when the compiler knows it: a
/// folder written `./…` or `../…` is named from that file's folder, as `include_str!` names
/// its file; any other from the crate's root.
pub(crate) fn skills_macro(
    input: TokenStream,
    calling_file: Option<PathBuf>,
) -> syn::Result<TokenStream> {
    let folder: LitStr = syn::parse2(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "write beam_mcp::skills!(\"skills\"): the folder of skills, from the crate's root",
        )
    })?;
    let refuse = |why: String| syn::Error::new(folder.span(), why);
    let written = folder.value();
    let from_file = written.starts_with("./") || written.starts_with("../");
    let base = if from_file {
        calling_file
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .ok_or_else(|| {
                refuse("a folder written ./… is named from the file calling skills!, which the compiler does not name here: name it from the crate's root".into())
            })?
    } else {
        std::env::var_os("CARGO_MANIFEST_DIR")
            .map(PathBuf::from)
            .ok_or_else(|| {
                refuse("CARGO_MANIFEST_DIR is not set: skills are read under cargo".into())
            })?
    };
    // Absolute: `include_bytes!` reads a relative path from the calling file's folder, and the
    // compiler may name that file relative to its working directory.
    let root = std::path::absolute(base.join(&written)).unwrap_or_else(|_| base.join(&written));
    if !root.is_dir() {
        let from = if from_file {
            "the file calling skills!"
        } else {
            "the crate's root, where its Cargo.toml is"
        };
        return Err(refuse(format!(
            "{written:?} is not a folder (this folder of skills is named from {from})"
        )));
    }
    let skills = find_skills(&root).map_err(|why| refuse(format!("{}: {why}", folder.value())))?;
    if skills.is_empty() {
        return Err(refuse(format!(
            "{:?} holds no skill: a skill is a folder with a SKILL.md",
            folder.value()
        )));
    }
    let mut consts = Vec::new();
    let mut defs = Vec::new();
    for (i, dir) in skills.iter().enumerate() {
        let skill = read_skill(&root, dir).map_err(refuse)?;
        let files_ident = format_ident!("__BEAM_SKILL_FILES_{}", i);
        let files = skill.files.iter().map(|(path, absolute, mime_type)| {
            quote!(::beam_mcp::skill::SkillFile::new(#path, ::core::include_bytes!(#absolute), #mime_type))
        });
        consts.push(quote! {
            const #files_ident: &[::beam_mcp::skill::SkillFile] = &[#(#files),*];
        });
        let (path, frontmatter) = (&skill.path, &skill.frontmatter);
        defs.push(quote!(::beam_mcp::skill::SkillDef::new(#path, #frontmatter, #files_ident)));
    }
    Ok(quote! {
        const {
            #(#consts)*
            const __BEAM_SKILLS: &[::beam_mcp::skill::SkillDef] = &[#(#defs),*];
            __BEAM_SKILLS
        }
    })
}

/// One skill read from its folder.
struct Skill {
    /// Its path under the folder of skills, with `/`.
    path: String,
    /// Its frontmatter as JSON text.
    frontmatter: String,
    /// Each file: its path in the skill's folder, its absolute path, its MIME type.
    files: Vec<(String, String, &'static str)>,
}

/// Every folder under `root` (not `root` itself) holding a `SKILL.md`, sorted.
fn find_skills(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in entries(&dir)? {
            if entry.is_dir() {
                // A SKILL.md that is a symbolic link is left out, as every link is.
                let skill_md = std::fs::symlink_metadata(entry.join("SKILL.md"));
                if skill_md.is_ok_and(|m| m.is_file()) {
                    found.push(entry.clone());
                }
                stack.push(entry);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The entries of `dir` that are served: not hidden, not symbolic links; sorted.
fn entries(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        let link = entry.file_type().is_ok_and(|t| t.is_symlink());
        if !hidden && !link {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

/// Every file under `dir`, relative to it, with `/`.
fn files_under(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) -> Result<(), String> {
    for entry in entries(dir)? {
        let name = entry
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| format!("{} is not named in UTF-8", entry.display()))?
            .to_owned();
        let relative = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if entry.is_dir() {
            files_under(&entry, &relative, out)?;
        } else {
            out.push((relative, entry));
        }
    }
    Ok(())
}

fn read_skill(root: &Path, dir: &Path) -> Result<Skill, String> {
    let path = dir
        .strip_prefix(root)
        .ok()
        .and_then(Path::to_str)
        .map(|p| p.replace('\\', "/"))
        .ok_or_else(|| format!("{} is not named in UTF-8", dir.display()))?;
    let at = |why: String| format!("skill {path:?}: {why}");
    let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
    beam_mcp_rules::skill_path(&path).map_err(at)?;
    let text = std::fs::read_to_string(dir.join("SKILL.md"))
        .map_err(|e| at(format!("cannot read its SKILL.md as UTF-8: {e}")))?;
    let fields = frontmatter(&text).map_err(|why| at(format!("SKILL.md: {why}")))?;
    let field = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    match field("name") {
        Some(Yaml::Str(n)) if *n == name => {}
        _ => {
            return Err(at(format!(
                "SKILL.md's frontmatter names it {name:?}, as its folder is named: write name: {name}"
            )));
        }
    }
    let Some(Yaml::Str(description)) = field("description") else {
        return Err(at(
            "SKILL.md's frontmatter has no description: say what the skill does and when to use it"
                .into(),
        ));
    };
    beam_mcp_rules::skill_description(description).map_err(at)?;
    if let Some(compatibility) = field("compatibility") {
        let Yaml::Str(compatibility) = compatibility else {
            return Err(at("SKILL.md's compatibility is text".into()));
        };
        beam_mcp_rules::skill_compatibility(compatibility).map_err(at)?;
    }
    let mut files = Vec::new();
    files_under(dir, "", &mut files).map_err(at)?;
    let mut bytes = 0;
    for (relative, absolute) in &files {
        beam_mcp_rules::skill_file_path(relative).map_err(at)?;
        bytes += std::fs::metadata(absolute).map(|m| m.len()).unwrap_or(0);
    }
    beam_mcp_rules::skill_bounds(files.len(), bytes).map_err(at)?;
    let files = files
        .into_iter()
        .map(|(relative, absolute)| {
            let mime_type = mime_type(&relative);
            (relative, absolute.to_string_lossy().into_owned(), mime_type)
        })
        .collect();
    Ok(Skill {
        path,
        frontmatter: Yaml::Map(fields).to_json(),
        files,
    })
}

/// The MIME type of a file by its extension (`text/markdown` for `SKILL.md`).
fn mime_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match extension.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("txt") => "text/plain",
        Some("html" | "htm") => "text/html",
        Some("csv") => "text/csv",
        Some("py") => "text/x-python",
        Some("sh") => "text/x-shellscript",
        Some("js" | "mjs") => "text/javascript",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("toml") => "application/toml",
        Some("xml") => "application/xml",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// A value of the YAML a frontmatter holds.
#[derive(Debug, PartialEq)]
enum Yaml {
    Str(String),
    /// A number, bool or null, as JSON text.
    Plain(String),
    List(Vec<Yaml>),
    Map(Vec<(String, Yaml)>),
}

impl Yaml {
    fn to_json(&self) -> String {
        match self {
            Yaml::Str(s) => json_string(s),
            Yaml::Plain(p) => p.clone(),
            Yaml::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(Yaml::to_json)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Yaml::Map(fields) => format!(
                "{{{}}}",
                fields
                    .iter()
                    .map(|(k, v)| format!("{}:{}", json_string(k), v.to_json()))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The frontmatter of a `SKILL.md`: its top-level fields in order.
fn frontmatter(text: &str) -> Result<Vec<(String, Yaml)>, String> {
    // A byte-order mark before the frontmatter is not part of it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let body = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or("it starts with its frontmatter, between lines of ---")?;
    let lines: Vec<&str> = body.lines().collect();
    let end = lines
        .iter()
        .position(|l| l.trim_end() == "---")
        .ok_or("its frontmatter is not closed by a line of ---")?;
    let lines = &lines[..end];
    let mut fields: Vec<(String, Yaml)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if is_blank(line) {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            return Err(format!(
                "line {:?} is indented where a field begins",
                line.trim()
            ));
        }
        let (key, rest) = key_value(line)?;
        if fields.iter().any(|(k, _)| k == key) {
            return Err(format!("the field {key} is given twice"));
        }
        // A block goes on while lines are indented (or empty); a comment at column 0 ends it,
        // as in YAML. A list under a field may also start at column 0 (`- item`).
        let block: Vec<&str> = lines[i..]
            .iter()
            .take_while(|l| {
                l.trim().is_empty()
                    || l.starts_with([' ', '\t'])
                    || (rest.is_empty() && (l.starts_with("- ") || **l == "-"))
            })
            .copied()
            .collect();
        let value = match rest {
            "" => {
                i += block.len();
                nested(&block)?
            }
            "|" | "|-" | ">" | ">-" => {
                i += block.len();
                Yaml::Str(block_scalar(rest, &block)?)
            }
            // A plain scalar may go on over indented lines: YAML folds each line break into a
            // space (an empty line into a line break).
            _ if !rest.starts_with(['"', '\'']) && block.iter().any(|l| !l.trim().is_empty()) => {
                let taken = block
                    .iter()
                    .rposition(|l| !l.trim().is_empty())
                    .map_or(0, |last| last + 1);
                i += taken;
                let mut text = rest.to_owned();
                let mut breaks = 0;
                for line in &block[..taken] {
                    let line = line.trim();
                    if line.is_empty() {
                        breaks += 1;
                        continue;
                    }
                    if line.starts_with('#') {
                        return Err(format!(
                            "a comment inside the value of {key} is beyond what skills! reads"
                        ));
                    }
                    text.push_str(&if breaks == 0 {
                        " ".to_owned()
                    } else {
                        "\n".repeat(breaks)
                    });
                    text.push_str(line);
                    breaks = 0;
                }
                scalar(&text)?
            }
            _ => scalar(rest)?,
        };
        fields.push((key.to_owned(), value));
    }
    Ok(fields)
}

fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// `key: rest`, the key plain.
fn key_value(line: &str) -> Result<(&str, &str), String> {
    let (key, rest) = line
        .split_once(':')
        .ok_or_else(|| format!("line {:?} is not `field: value`", line.trim()))?;
    let key = key.trim();
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
    {
        return Err(format!("{key:?} is not a field name skills! reads"));
    }
    Ok((key, rest.trim()))
}

/// An indented block under `key:`: a list of scalars, or a map of scalars.
fn nested(block: &[&str]) -> Result<Yaml, String> {
    let items: Vec<&str> = block
        .iter()
        .filter(|l| !is_blank(l))
        .map(|l| l.trim())
        .collect();
    if items.is_empty() {
        return Ok(Yaml::Plain("null".into()));
    }
    if items.iter().all(|l| l.starts_with("- ") || *l == "-") {
        let list = items
            .iter()
            .map(|l| scalar(l.trim_start_matches('-').trim()))
            .collect::<Result<_, _>>()?;
        return Ok(Yaml::List(list));
    }
    let mut map = Vec::new();
    for line in items {
        let (key, rest) = key_value(line)?;
        if rest.is_empty() || rest.starts_with(['|', '>']) {
            return Err(format!(
                "{key}: skills! reads one level of fields under a field, each on one line"
            ));
        }
        map.push((key.to_owned(), scalar(rest)?));
    }
    Ok(Yaml::Map(map))
}

/// A `|` (literal) or `>` (folded) block scalar; `-` strips its final line break.
fn block_scalar(indicator: &str, block: &[&str]) -> Result<String, String> {
    let spaces = |l: &str| l.bytes().take_while(|b| *b == b' ').count();
    if block.iter().any(|l| l.starts_with('\t')) {
        return Err("a block is indented with spaces, not tabs".into());
    }
    let indent = block
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| spaces(l))
        .min()
        .unwrap_or(0);
    // The indentation is ASCII spaces, so cutting it never splits a character.
    let mut lines: Vec<&str> = block
        .iter()
        .map(|l| l.get(indent.min(spaces(l))..).unwrap_or(""))
        .collect();
    if indicator.starts_with('>') && lines.iter().any(|l| l.starts_with(' ')) {
        return Err("a folded (>) block with more-indented lines is beyond what skills! reads: write it with |".into());
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let mut text = if indicator.starts_with('|') {
        lines.join("\n")
    } else {
        // Folded: a line break between two lines of text is a space, an empty line a break.
        let mut out = String::new();
        for (i, line) in lines.iter().enumerate() {
            if line.is_empty() {
                out.push('\n');
            } else {
                if i > 0 && !lines[i - 1].is_empty() {
                    out.push(' ');
                }
                out.push_str(line);
            }
        }
        out
    };
    if !indicator.ends_with('-') {
        text.push('\n');
    }
    Ok(text)
}

/// A scalar on one line: quoted text, or plain (a bool, null, number, or text).
fn scalar(raw: &str) -> Result<Yaml, String> {
    // A comment may follow a quoted scalar.
    let raw = match raw.chars().next() {
        Some(quote @ ('"' | '\'')) => match raw[1..].rfind(quote) {
            Some(end)
                if raw[end + 2..].trim().is_empty()
                    || raw[end + 2..].trim_start().starts_with('#') =>
            {
                &raw[..end + 2]
            }
            _ => raw,
        },
        _ => raw,
    };
    if let Some(inner) = raw.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .ok_or_else(|| format!("{raw} is not closed by \""))?;
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some('/') => out.push('/'),
                other => {
                    return Err(format!(
                        "the escape \\{} in {raw} is not one skills! reads",
                        other.unwrap_or(' ')
                    ));
                }
            }
        }
        return Ok(Yaml::Str(out));
    }
    if let Some(inner) = raw.strip_prefix('\'') {
        let inner = inner
            .strip_suffix('\'')
            .ok_or_else(|| format!("{raw} is not closed by '"))?;
        return Ok(Yaml::Str(inner.replace("''", "'")));
    }
    // A comment ends a plain scalar.
    let plain = raw.split(" #").next().unwrap_or(raw).trim();
    if plain.starts_with(['[', '{', '&', '*', '!', '|', '>', '%', '@', '`']) {
        return Err(format!(
            "{plain} is YAML beyond what skills! reads (flow collections, anchors, tags): quote it, or write it in block style"
        ));
    }
    if plain.contains(": ") || plain.ends_with(':') {
        return Err(format!(
            "{plain} holds \": \", which YAML reads as a mapping: quote it"
        ));
    }
    // Words and numbers YAML 1.1 and 1.2 readers type differently: a host re-reading the file
    // must see what the manifest says.
    let lower = plain.to_ascii_lowercase();
    let ambiguous = ["yes", "no", "on", "off", ".inf", "-.inf", "+.inf", ".nan"]
        .contains(&lower.as_str())
        || (["true", "false", "null"].contains(&lower.as_str()) && plain != lower)
        || lower.starts_with("0x")
        || lower.starts_with("0o")
        || (plain.len() > 1 && plain.starts_with('0') && plain.bytes().all(|b| b.is_ascii_digit()));
    if ambiguous {
        return Err(format!(
            "{plain} is read differently by YAML 1.1 and 1.2 readers: quote it (\"{plain}\") or write it plainly (true, false, null, decimal numbers)"
        ));
    }
    Ok(match plain {
        "true" | "false" => Yaml::Plain(plain.into()),
        "null" | "~" | "" => Yaml::Plain("null".into()),
        _ if is_integer(plain) => Yaml::Plain(plain.trim_start_matches('+').into()),
        _ if is_float(plain) => {
            let number = plain.trim_start_matches('+');
            if !number.parse::<f64>().is_ok_and(f64::is_finite) {
                return Err(format!("{plain} is beyond what a JSON number holds"));
            }
            Yaml::Plain(number.into())
        }
        _ => Yaml::Str(plain.into()),
    })
}

/// An optional sign, then decimal digits (no leading zero).
fn is_integer(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    is_digits(digits)
}

/// Decimal digits without a leading zero.
fn is_digits(digits: &str) -> bool {
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
}

/// A decimal float (`1.5`, `-0.25`, `+2e3`): one sign at most, in front.
fn is_float(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mantissa, exponent) = match body.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (body, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            is_digits(whole) && !fraction.is_empty() && fraction.bytes().all(|b| b.is_ascii_digit())
        }
        None => is_digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok && (mantissa.contains('.') || exponent.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> String {
        Yaml::Map(frontmatter(text).unwrap()).to_json()
    }

    #[test]
    fn the_yaml_of_a_frontmatter_reads_as_json() {
        let text = "---\nname: packing\ndescription: >\n  What to pack,\n  by the weather.\nlicense: 'Apache-2.0'\nversion: 2\nratio: 1.5\nsemver: 2.1.0\nbeta: true\nallowed-tools: Read Write  # the tools\nmetadata:\n  author: \"beam \\\"mcp\\\"\"\n  team: weather\ntags:\n  - travel\n  - 3\n---\nbody\n";
        assert_eq!(
            json(text),
            r#"{"name":"packing","description":"What to pack, by the weather.\n","license":"Apache-2.0","version":2,"ratio":1.5,"semver":"2.1.0","beta":true,"allowed-tools":"Read Write","metadata":{"author":"beam \"mcp\"","team":"weather"},"tags":["travel",3]}"#
        );
        assert_eq!(
            json("---\nname: a\ndescription: |-\n  one\n  two\n---\n"),
            r#"{"name":"a","description":"one\ntwo"}"#
        );
    }

    /// `read_skill` of a skill folder `name` holding a SKILL.md of `text`.
    fn refusal(name: &str, text: &str) -> String {
        let root =
            std::env::temp_dir().join(format!("beam-mcp-skills-{}-{name}", std::process::id()));
        std::fs::create_dir_all(root.join(name)).unwrap();
        std::fs::write(root.join(name).join("SKILL.md"), text).unwrap();
        let out = read_skill(&root, &root.join(name));
        std::fs::remove_dir_all(&root).unwrap();
        out.err().expect("refused")
    }

    #[test]
    fn a_skill_breaking_the_agent_skills_rules_is_refused() {
        assert!(
            refusal("packing", "---\nname: pack\ndescription: x\n---\n")
                .contains("names it \"packing\", as its folder is named")
        );
        assert!(refusal("packing", "---\nname: packing\n---\n").contains("has no description"));
        let long = format!(
            "---\nname: packing\ndescription: {}\n---\n",
            "x".repeat(1025)
        );
        assert!(refusal("packing", &long).contains("at most 1024 characters; this one is 1025"));
        assert!(
            refusal("Packing", "---\nname: Packing\ndescription: x\n---\n")
                .contains("lowercase letters, digits and single hyphens")
        );
        let compatibility = format!(
            "---\nname: packing\ndescription: x\ncompatibility: {}\n---\n",
            "y".repeat(501)
        );
        assert!(refusal("packing", &compatibility).contains("at most 500 characters"));
        assert!(refusal("packing", "no frontmatter").contains("starts with its frontmatter"));
    }

    #[test]
    fn odd_blocks_and_numbers_are_read_as_yaml_reads_them_or_refused() {
        // A no-break space on a line of a block is text, not indentation: no panic.
        assert_eq!(
            json("---\nname: a\ndescription: |\n one\n \u{a0}two\n---\n"),
            "{\"name\":\"a\",\"description\":\"one\\n\u{a0}two\\n\"}"
        );
        // A comment at column 0 ends a block.
        assert_eq!(
            json("---\nname: a\ndescription: |\n  text\n# note\nlicense: MIT\n---\n"),
            r#"{"name":"a","description":"text\n","license":"MIT"}"#
        );
        // A list may start at column 0; a comment may follow a quoted scalar; a BOM is not part
        // of the frontmatter; a sign in front of a number is dropped.
        assert_eq!(
            json(
                "\u{feff}---\nname: \"a\" # the name\ntags:\n- x\n- y\nratio: +1.5\nbig: 2E+3\n---\n"
            ),
            r#"{"name":"a","tags":["x","y"],"ratio":1.5,"big":2E+3}"#
        );
        for (text, why) in [
            ("---\nversion: --1.5\n---\n", "not closed"),
            ("---\nd: 1e400\n---\n", "beyond what a JSON number holds"),
            ("---\nd: Use when: planning\n---\n", "quote it"),
            ("---\nd: yes\n---\n", "YAML 1.1 and 1.2"),
            ("---\nd: 007\n---\n", "YAML 1.1 and 1.2"),
            ("---\nd: True\n---\n", "YAML 1.1 and 1.2"),
            ("---\nd: >\n  a\n    b\n---\n", "write it with |"),
            ("---\nd: |\n\tx\n---\n", "not tabs"),
        ] {
            match frontmatter(text) {
                Ok(fields) if why == "not closed" => {
                    // `--1.5` is text to YAML, and so here.
                    assert_eq!(fields[0].1, Yaml::Str("--1.5".into()), "{text:?}");
                }
                Ok(fields) => panic!("{text:?} read as {fields:?}"),
                Err(error) => assert!(error.contains(why), "{text:?}: {error}"),
            }
        }
    }

    #[test]
    fn a_plain_scalar_goes_on_over_indented_lines() {
        assert_eq!(
            json(
                "---\nname: a\ndescription: Packs for the weather,\n  by the forecast.\n\n  Then checks.\nlicense: MIT\n---\n"
            ),
            r#"{"name":"a","description":"Packs for the weather, by the forecast.\nThen checks.","license":"MIT"}"#
        );
        let error = frontmatter("---\nd: one\n  two: three\n---\n").unwrap_err();
        assert!(error.contains("quote it"), "{error}");
    }

    #[test]
    fn yaml_beyond_the_subset_is_refused_by_line() {
        for (text, why) in [
            ("name: a\n---\n", "it starts with its frontmatter"),
            ("---\nname: a\n", "not closed"),
            ("---\nname: [a, b]\n---\n", "beyond what skills! reads"),
            ("---\nname: a\nname: b\n---\n", "given twice"),
            ("---\n  name: a\n---\n", "indented where a field begins"),
            ("---\nmeta:\n  deep:\n    x: 1\n---\n", "one level"),
        ] {
            let error = frontmatter(text).unwrap_err();
            assert!(error.contains(why), "{text:?}: {error}");
        }
    }
}
