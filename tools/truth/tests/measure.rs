//! `measure` end to end on the workspace's two example servers: the IR build (the example
//! crate alone, its dependencies from the shared cache), the scan and the comparison give a
//! report with IR edges, and the scan holds issue 29's bar against the compiler on both:
//! recall of crate-local function edges at least 85%, precision at least 95%, every sink the
//! IR calls seen. (The crates.io corpus is measured by `tools/truth/corpus.sh`, outside the
//! gate.)

use std::path::PathBuf;

use beam_mcp_truth::{Target, measure};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

#[test]
fn measures_the_example_servers() {
    // One after the other: each is a cargo build, and the machine has two cores.
    for (dir, krate, bin) in [
        ("weather", "weather", "weather"),
        (
            "conformance-harness",
            "conformance_harness",
            "conformance-harness",
        ),
    ] {
        let target = Target::new(example(dir)).crate_name(krate).bin(bin);
        let report = measure(&target).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let metrics = &report.metrics;
        assert!(report.ll.is_file(), "{dir}: {}", report.ll.display());
        assert!(
            metrics.ir_local_functions > 0,
            "{dir}: no function of the crate in the IR"
        );
        assert!(
            metrics.ir_edges > 0,
            "{dir}: no IR edge between declared functions"
        );
        assert!(
            metrics.declared_functions > 0,
            "{dir}: no declared function"
        );
        assert!(report.scan.lines > 0 && report.scan.files > 0);
        assert_eq!(report.target, format!("bin {bin}"));
        let text = report.text();
        assert!(
            text.contains("recall") && text.contains("precision"),
            "{text}"
        );
        let json = report.to_json();
        assert_eq!(json["crate"], krate);
        assert!(json["ir"]["edges"].as_u64().is_some_and(|n| n > 0));
        assert!(json["recall"].is_number(), "{json:#}");
        let recall = metrics.recall().unwrap_or(0.0);
        let precision = metrics.precision().unwrap_or(0.0);
        assert!(recall >= 0.85, "{dir}: recall {recall:.3}\n{text}");
        assert!(precision >= 0.95, "{dir}: precision {precision:.3}\n{text}");
        assert_eq!(json["sink_recall"], 1.0, "{dir}: {json:#}");
    }
}

#[test]
fn refuses_a_crate_name_that_is_not_the_targets() {
    let target = Target::new(example("weather"))
        .crate_name("not_weather")
        .bin("weather");
    let refused = measure(&target);
    assert!(
        matches!(refused, Err(beam_mcp_truth::TruthError::Usage(_))),
        "{refused:?}"
    );
}

#[test]
fn refuses_a_missing_package() {
    let target = Target::new(example("no-such-example"));
    assert!(measure(&target).is_err());
}
