//! Record order: strings by UTF-16 code units (RFC 8785), edge kinds by their words.

use crate::vocab::EdgeKind;

pub(super) use crate::canonical::text::utf16_cmp;

/// Where a kind sorts among the kinds by its word (`invoke`, `message`, `read`, `supervise`),
/// which is not the vocabulary's declared order.
pub(super) fn kind_rank(kind: EdgeKind) -> usize {
    EdgeKind::ALL
        .iter()
        .filter(|other| other.as_str() < kind.as_str())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_comparing_utf16_code_units() {
        let words = [
            "",
            "a",
            "ab",
            "b",
            "\u{e9}",
            "\u{FF01}",
            "\u{1F600}",
            "\u{1F601}",
            "a\u{FF01}",
            "a\u{1F600}",
            "\u{E000}",
            "\u{FFFF}",
            "\u{10000}",
            "\u{7F}",
            "\u{80}",
            "\u{10FFFF}",
        ];
        for a in words {
            for b in words {
                assert_eq!(
                    utf16_cmp(a, b),
                    a.encode_utf16().cmp(b.encode_utf16()),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn kinds_rank_by_their_words() {
        let mut by_word = EdgeKind::ALL.to_vec();
        by_word.sort_by_key(|kind| kind.as_str());
        let ranks: Vec<usize> = by_word.into_iter().map(kind_rank).collect();
        assert_eq!(ranks, [0, 1, 2, 3]);
    }
}
