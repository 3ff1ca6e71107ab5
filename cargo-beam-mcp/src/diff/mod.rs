//! `diff OLD NEW`: every change between two surfaces, per protocol revision, classified as
//! breaking (a client that worked may fail), additive (a client may do more) or cosmetic
//! (what a person reads), with the semver bump it asks for.
//!
//! OLD and NEW are each a canonical export (a file `Advertised` wrote), a folder of them (one
//! per revision, as `examples/weather/advertised/`), `REV:PATH` of either in git, a git
//! revision of the crate (checked out aside, built, and listed), or a running server (a TARGET:
//! listed at each revision it speaks).

pub(crate) mod schema;
mod surface;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

/// What `diff` was asked.
pub(crate) struct Options {
    pub(crate) old: String,
    pub(crate) new: String,
    pub(crate) deny_breaking: bool,
    /// The crate a bare git revision is built from (`Cargo.toml` here by default).
    pub(crate) manifest: PathBuf,
    pub(crate) bin: Option<String>,
    /// Where a git revision is built (the crate's `target/beam-mcp-diff` by default).
    pub(crate) target_dir: Option<PathBuf>,
}

/// How a change lands on a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Class {
    Breaking,
    Additive,
    Cosmetic,
}

impl Class {
    fn word(self) -> &'static str {
        match self {
            Class::Breaking => "breaking",
            Class::Additive => "additive",
            Class::Cosmetic => "cosmetic",
        }
    }
}

/// One change: where, how it lands, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Change {
    pub(crate) class: Class,
    /// `tool get_weather`, `resource weather://stations`, `revision 2025-11-25`.
    pub(crate) item: String,
    pub(crate) what: String,
}

fn change(class: Class, item: &str, what: impl Into<String>) -> Change {
    Change {
        class,
        item: item.to_owned(),
        what: what.into(),
    }
}

pub(crate) async fn run(options: Options) -> Result<ExitCode, String> {
    let crate_at = surface::Crate {
        manifest: &options.manifest,
        bin: options.bin.as_deref(),
        target_dir: options.target_dir.as_deref(),
    };
    let old = surface::load(&options.old, &crate_at).await?;
    let new = surface::load(&options.new, &crate_at).await?;
    let mut report = String::new();
    let mut counts = BTreeMap::new();
    for revision in old
        .keys()
        .chain(new.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let changes = match (old.get(revision), new.get(revision)) {
            (Some(a), Some(b)) => classify(a, b),
            (Some(_), None) => vec![change(
                Class::Breaking,
                &format!("revision {revision}"),
                "no longer served",
            )],
            (None, Some(_)) => vec![change(
                Class::Additive,
                &format!("revision {revision}"),
                "served now",
            )],
            (None, None) => Vec::new(),
        };
        let _ = writeln!(report, "{revision}:");
        if changes.is_empty() {
            let _ = writeln!(report, "  no change");
        }
        for c in &changes {
            *counts.entry(c.class).or_insert(0usize) += 1;
            let _ = writeln!(report, "  {:<9} {}: {}", c.class.word(), c.item, c.what);
        }
    }
    let count = |class| counts.get(&class).copied().unwrap_or(0);
    let (breaking, additive, cosmetic) = (
        count(Class::Breaking),
        count(Class::Additive),
        count(Class::Cosmetic),
    );
    let bump = if breaking > 0 {
        "major (0.x: minor)"
    } else if additive > 0 {
        "minor (0.x: patch)"
    } else if cosmetic > 0 {
        "patch"
    } else {
        "none"
    };
    let _ = writeln!(
        report,
        "summary: {breaking} breaking, {additive} additive, {cosmetic} cosmetic; suggested bump: {bump}"
    );
    print!("{report}");
    if options.deny_breaking && breaking > 0 {
        eprintln!("cargo beam-mcp: {breaking} breaking change(s), denied");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Every change between two exports of one revision.
pub(crate) fn classify(old: &Value, new: &Value) -> Vec<Change> {
    let mut changes = Vec::new();
    for (member, key, kind) in [
        ("tools", "name", "tool"),
        ("resources", "uri", "resource"),
        ("resourceTemplates", "uriTemplate", "template"),
        ("prompts", "name", "prompt"),
    ] {
        let index = |export: &Value| -> BTreeMap<String, Value> {
            export
                .get(member)
                .and_then(Value::as_array)
                .map(|items| {
                    items
                        .iter()
                        .filter_map(|item| {
                            Some((item.get(key)?.as_str()?.to_owned(), item.clone()))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let (before, after) = (index(old), index(new));
        for (name, item) in &before {
            let label = format!("{kind} {name}");
            match after.get(name) {
                None => changes.push(change(Class::Breaking, &label, "removed")),
                Some(now) => match kind {
                    "tool" => tool(&label, item, now, &mut changes),
                    "prompt" => prompt(&label, item, now, &mut changes),
                    _ => resource(&label, item, now, &mut changes),
                },
            }
        }
        for name in after.keys().filter(|n| !before.contains_key(*n)) {
            changes.push(change(Class::Additive, &format!("{kind} {name}"), "added"));
        }
    }
    changes
}

/// Members that only a person reads.
const DISPLAY: [&str; 5] = ["title", "description", "icons", "_meta", "name"];

fn display(label: &str, old: &Value, new: &Value, keys: &[&str], changes: &mut Vec<Change>) {
    for key in keys {
        if old.get(key) != new.get(key) {
            changes.push(change(Class::Cosmetic, label, format!("{key} changed")));
        }
    }
}

/// What a tool or a prompt shows a person, beside what a client relies on.
const SHOWN: [&str; 4] = ["title", "description", "icons", "_meta"];

fn tool(label: &str, old: &Value, new: &Value, changes: &mut Vec<Change>) {
    display(label, old, new, &SHOWN, changes);
    // Arguments: a value refused now breaks a caller; one accepted now is new room.
    let input = schema::compare(
        old.get("inputSchema").unwrap_or(&Value::Bool(true)),
        new.get("inputSchema").unwrap_or(&Value::Bool(true)),
    );
    findings(
        changes,
        label,
        "argument",
        input,
        Class::Breaking,
        Class::Additive,
    );
    // Results: the reverse. A result the old schema did not allow breaks a reader; one the
    // new schema no longer produces is a stronger promise.
    match (old.get("outputSchema"), new.get("outputSchema")) {
        (None, None) => {}
        (Some(_), None) => changes.push(change(Class::Breaking, label, "output schema removed")),
        (None, Some(_)) => changes.push(change(Class::Additive, label, "output schema added")),
        (Some(a), Some(b)) => {
            let output = schema::compare(a, b);
            findings(
                changes,
                label,
                "output",
                output,
                Class::Additive,
                Class::Breaking,
            );
        }
    }
    annotations(
        label,
        old.get("annotations"),
        new.get("annotations"),
        changes,
    );
    let task = |v: &Value| {
        v.pointer("/execution/taskSupport")
            .and_then(Value::as_str)
            .unwrap_or("forbidden")
            .to_owned()
    };
    let (was, now) = (task(old), task(new));
    if was != now {
        let class = if now == "required" {
            Class::Breaking
        } else {
            Class::Additive
        };
        changes.push(change(class, label, format!("task support {was} → {now}")));
    }
    for key in new.as_object().into_iter().flat_map(|m| m.keys()) {
        let known = [
            "name",
            "inputSchema",
            "outputSchema",
            "annotations",
            "execution",
        ];
        if !known.contains(&key.as_str())
            && !DISPLAY.contains(&key.as_str())
            && old.get(key) != new.get(key)
        {
            changes.push(change(
                Class::Breaking,
                label,
                format!("{key} changed (not compared)"),
            ));
        }
    }
}

/// Each finding of a schema comparison as a change of `label` (`side`: "argument" or
/// "output"): a narrowing lands as `narrowed`, a widening as `widened`, an annotation as
/// cosmetic.
fn findings(
    changes: &mut Vec<Change>,
    label: &str,
    side: &str,
    found: schema::Findings,
    narrowed: Class,
    widened: Class,
) {
    let lists = [
        (found.narrowed, narrowed),
        (found.widened, widened),
        (found.cosmetic, Class::Cosmetic),
    ];
    for (list, class) in lists {
        for what in list {
            changes.push(change(class, label, format!("{side} {what}")));
        }
    }
}

/// The hints as a client may read them, their defaults applied: a weaker promise breaks a
/// client that relied on it; a stronger one is additive.
fn annotations(label: &str, old: Option<&Value>, new: Option<&Value>, changes: &mut Vec<Change>) {
    let hints = |a: Option<&Value>| {
        let flag = |key: &str| a.and_then(|a| a.get(key)).and_then(Value::as_bool);
        let read_only = flag("readOnlyHint").unwrap_or(false);
        [
            ("read-only", read_only),
            (
                "non-destructive",
                read_only || !flag("destructiveHint").unwrap_or(true),
            ),
            (
                "idempotent",
                read_only || flag("idempotentHint").unwrap_or(false),
            ),
            ("closed-world", !flag("openWorldHint").unwrap_or(true)),
        ]
    };
    for ((name, was), (_, now)) in hints(old).into_iter().zip(hints(new)) {
        match (was, now) {
            (true, false) => {
                changes.push(change(Class::Breaking, label, format!("no longer {name}")))
            }
            (false, true) => changes.push(change(Class::Additive, label, format!("{name} now"))),
            _ => {}
        }
    }
    let title = |a: Option<&Value>| a.and_then(|a| a.get("title")).cloned();
    if title(old) != title(new) {
        changes.push(change(Class::Cosmetic, label, "annotation title changed"));
    }
}

fn prompt(label: &str, old: &Value, new: &Value, changes: &mut Vec<Change>) {
    display(label, old, new, &SHOWN, changes);
    let arguments = |v: &Value| -> BTreeMap<String, Value> {
        v.get("arguments")
            .and_then(Value::as_array)
            .map(|args| {
                args.iter()
                    .filter_map(|a| Some((a.get("name")?.as_str()?.to_owned(), a.clone())))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (before, after) = (arguments(old), arguments(new));
    let required = |a: &Value| a.get("required").and_then(Value::as_bool) == Some(true);
    for (name, arg) in &before {
        match after.get(name) {
            None => changes.push(change(
                Class::Breaking,
                label,
                format!("argument {name} removed"),
            )),
            Some(now) => {
                match (required(arg), required(now)) {
                    (false, true) => changes.push(change(
                        Class::Breaking,
                        label,
                        format!("argument {name} required now"),
                    )),
                    (true, false) => changes.push(change(
                        Class::Additive,
                        label,
                        format!("argument {name} optional now"),
                    )),
                    _ => {}
                }
                display(
                    &format!("{label} argument {name}"),
                    arg,
                    now,
                    &["title", "description"],
                    changes,
                );
            }
        }
    }
    for (name, arg) in &after {
        if !before.contains_key(name) {
            let class = if required(arg) {
                Class::Breaking
            } else {
                Class::Additive
            };
            let how = if required(arg) {
                "required"
            } else {
                "optional"
            };
            changes.push(change(
                class,
                label,
                format!("argument {name} added, {how}"),
            ));
        }
    }
}

fn resource(label: &str, old: &Value, new: &Value, changes: &mut Vec<Change>) {
    display(
        label,
        old,
        new,
        &[
            "name",
            "title",
            "description",
            "icons",
            "_meta",
            "annotations",
            "size",
        ],
        changes,
    );
    if old.get("mimeType") != new.get("mimeType") {
        changes.push(change(Class::Breaking, label, "MIME type changed"));
    }
}

#[cfg(test)]
mod tests;
