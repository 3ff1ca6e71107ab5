//! The crate's sources as the dev front watches them: each file's modification time and size,
//! read again every few hundred milliseconds (no platform watcher: the same on every system,
//! and a crate's sources are few).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Each watched file's modification time and size.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Snapshot(BTreeMap<PathBuf, (SystemTime, u64)>);

impl Snapshot {
    /// The files under `roots` (folders walked; `target` and hidden folders skipped).
    pub(crate) fn take(roots: &[PathBuf]) -> Snapshot {
        let mut files = BTreeMap::new();
        for root in roots {
            walk(root, &mut files);
        }
        Snapshot(files)
    }

    /// The newest modification time among the files that differ from `before` (a save's
    /// time), when any does; a file removed counts as now.
    pub(crate) fn saved_since(&self, before: &Snapshot) -> Option<SystemTime> {
        let mut newest: Option<SystemTime> = None;
        let mut note = |time: SystemTime| newest = Some(newest.map_or(time, |n| n.max(time)));
        for (path, stamp) in &self.0 {
            if before.0.get(path) != Some(stamp) {
                note(stamp.0);
            }
        }
        if before.0.keys().any(|path| !self.0.contains_key(path)) {
            note(SystemTime::now());
        }
        newest
    }
}

fn walk(path: &Path, files: &mut BTreeMap<PathBuf, (SystemTime, u64)>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if meta.is_file() {
        let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        files.insert(path.to_path_buf(), (modified, meta.len()));
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        walk(&entry.path(), files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_an_addition_and_a_removal_are_seen() {
        let dir = std::env::temp_dir().join(format!("beam-dev-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/main.rs"), "a").unwrap();
        std::fs::create_dir_all(dir.join("target")).unwrap();
        let roots = [dir.join("src"), dir.join("Cargo.toml")];
        let first = Snapshot::take(&roots);
        assert_eq!(first.0.len(), 1);
        assert_eq!(Snapshot::take(&roots).saved_since(&first), None);
        std::fs::write(dir.join("src/main.rs"), "ab").unwrap();
        assert!(
            Snapshot::take(&roots).saved_since(&first).is_some(),
            "a size change"
        );
        std::fs::write(dir.join("src/lib.rs"), "").unwrap();
        std::fs::write(dir.join("Cargo.toml"), "").unwrap();
        let more = Snapshot::take(&roots);
        assert_eq!(more.0.len(), 3);
        std::fs::remove_file(dir.join("src/lib.rs")).unwrap();
        assert!(
            Snapshot::take(&roots).saved_since(&more).is_some(),
            "a removal"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
