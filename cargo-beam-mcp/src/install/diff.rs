//! A unified diff of two small texts, for `install --print`: the lines both keep around the
//! change, then what goes and what comes.

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// `before` → `after` as a unified diff of `path` (`--- path`, `+++ path`, `@@` hunks).
pub(crate) fn unified(path: &str, before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    // The common head and tail are matched at once: an install changes one place, so the
    // table below covers only the lines between.
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut ops = Vec::new();
    ops.extend((0..head).map(|i| Op::Keep(old[i])));
    ops.extend(middle(old_mid, new_mid));
    ops.extend((old.len() - tail..old.len()).map(|i| Op::Keep(old[i])));
    let mut out = format!("--- {path}\n+++ {path}\n");
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, op)| !matches!(op, Op::Keep(_)))
        .map(|(i, _)| i)
        .collect();
    let mut at = 0;
    while at < changed.len() {
        let start = changed[at].saturating_sub(CONTEXT);
        let mut end = changed[at];
        while at < changed.len() && changed[at] <= end + 2 * CONTEXT {
            end = changed[at];
            at += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let old_start = ops[..start]
            .iter()
            .filter(|o| !matches!(o, Op::Add(_)))
            .count();
        let new_start = ops[..start]
            .iter()
            .filter(|o| !matches!(o, Op::Remove(_)))
            .count();
        let hunk = &ops[start..end];
        let old_len = hunk.iter().filter(|o| !matches!(o, Op::Add(_))).count();
        let new_len = hunk.iter().filter(|o| !matches!(o, Op::Remove(_))).count();
        out.push_str(&format!(
            "@@ -{},{old_len} +{},{new_len} @@\n",
            old_start + 1,
            new_start + 1
        ));
        for op in hunk {
            let (mark, line) = match op {
                Op::Keep(l) => (' ', l),
                Op::Remove(l) => ('-', l),
                Op::Add(l) => ('+', l),
            };
            out.push(mark);
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

enum Op<'a> {
    Keep(&'a str),
    Remove(&'a str),
    Add(&'a str),
}

/// The shortest edit between two runs of lines, by their longest common subsequence.
fn middle<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Op<'a>> {
    let (n, m) = (old.len(), new.len());
    let mut table = vec![0u32; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i * (m + 1) + j] = if old[i] == new[j] {
                table[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                table[(i + 1) * (m + 1) + j].max(table[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j, mut ops) = (0, 0, Vec::new());
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            ops.push(Op::Keep(old[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1]) {
            // What goes is shown before what comes.
            ops.push(Op::Remove(old[i]));
            i += 1;
        } else {
            ops.push(Op::Add(new[j]));
            j += 1;
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_shown_with_its_context() {
        let before = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let after = "a\nb\nc\nd\nE\nf\ng\nh\ni\n";
        assert_eq!(
            unified("x.json", before, after),
            "--- x.json\n+++ x.json\n@@ -2,7 +2,8 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n+i\n"
        );
        assert_eq!(
            unified("new.json", "", "{\n}\n"),
            "--- new.json\n+++ new.json\n@@ -1,0 +1,2 @@\n+{\n+}\n"
        );
    }
}
