//! Sources that are legal but large or deep: the scan stays polynomial, its entries bounded,
//! and a file nested deeper than its stack allows is refused by name rather than aborting the
//! build script. The inputs are generated into temporary directories.

use crate::common::{edges, entries, scan_dir, temp_crate};
use beam_mcp_build::ScanError;

/// Ten modules each glob-importing all ten: every name none of them defines (`Some`, `Ok`,
/// `Vec`) used to be looked up along every path through the globs, about e·9! per name.
#[test]
fn mutually_glob_importing_modules_resolve_in_polynomial_time() {
    const MODULES: usize = 10;
    const FNS: usize = 30;
    let globs: Vec<String> = (0..MODULES).map(|m| format!("m{m}::*")).collect();
    let mut files = vec![(
        "src/lib.rs".to_owned(),
        (0..MODULES)
            .map(|m| format!("mod m{m};\n"))
            .collect::<String>(),
    )];
    for m in 0..MODULES {
        let mut text = format!("use crate::{{{}}};\n", globs.join(", "));
        for f in 0..FNS {
            let next = (m + 1) % MODULES;
            text.push_str(&format!(
                "pub fn f{m}_{f}() {{\n    let _ = Some(1);\n    let _: Result<u8, ()> = Ok(1);\n    let _: Vec<u8> = Vec::new();\n    f{next}_{f}();\n    missing_{f}();\n}}\n"
            ));
        }
        files.push((format!("src/m{m}.rs"), text));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = temp_crate("globs", &files);
    let declared = scan_dir(&dir, "g").scan().unwrap();

    let mut expected_edges = Vec::new();
    let mut expected_unresolved = Vec::new();
    for m in 0..MODULES {
        for f in 0..FNS {
            let next = (m + 1) % MODULES;
            expected_edges.push(format!(
                "srv/module/g::m{m}/f{m}_{f}/0 -> srv/module/g::m{next}/f{next}_{f}/0"
            ));
            // The prelude's `Vec`, named in full.
            expected_edges.push(format!(
                "srv/module/g::m{m}/f{m}_{f}/0 -> srv/boundary/std/std::vec::Vec::new"
            ));
            expected_unresolved.push(format!("g::m{m}::f{m}_{f} -> missing_{f}"));
        }
    }
    expected_edges.sort();
    expected_unresolved.sort();
    assert_eq!(edges(&declared), expected_edges);
    assert!(entries(&declared, "external_callees").is_empty());
    assert_eq!(entries(&declared, "unresolved_paths"), expected_unresolved);
    assert!(declared.bound.ambiguous_paths.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A builder chain of n calls used to list each call with its whole receiver: O(n²) text.
#[test]
fn a_method_call_is_listed_by_its_receivers_head() {
    const CALLS: usize = 300;
    let mut chain = "beam_mcp::Server::builder()".to_owned();
    for i in 0..CALLS {
        chain.push_str(&format!(".tool(t{i}.clone())"));
    }
    let long = format!("a{}", "_very_long_name".repeat(12));
    let lib = format!(
        "fn build() {{\n    {chain}.build();\n}}\n\
         impl S {{\n    fn reads(&self) {{\n        let {long} = make();\n        self.stations.get(x).unwrap().len();\n        {long}.max(1);\n        v[0].len();\n        (a + b).pow(2);\n        (1..=7).contains(&x);\n    }}\n}}\n"
    );
    let dir = temp_crate("chain", &[("src/lib.rs", &lib)]);
    let declared = scan_dir(&dir, "c").scan().unwrap();
    let calls = entries(&declared, "method_calls");
    let mut expected: Vec<String> = vec![
        "c::build -> beam_mcp::Server::builder().tool".to_owned(),
        "c::build -> beam_mcp::Server::builder()….tool".to_owned(),
        "c::build -> beam_mcp::Server::builder()….build".to_owned(),
        "c::S::reads -> self.stations.get".to_owned(),
        "c::S::reads -> self.stations….unwrap".to_owned(),
        "c::S::reads -> self.stations….len".to_owned(),
        "c::S::reads -> v….len".to_owned(),
        "c::S::reads -> a….pow".to_owned(),
        "c::S::reads -> (1..=7).contains".to_owned(),
        format!(
            "c::S::reads -> {}….max",
            long.chars()
                .take(120 - ".max".len() - 1)
                .collect::<String>()
        ),
    ];
    // The arguments' own calls: `t0.clone()` ... `t299.clone()`.
    expected.extend((0..CALLS).map(|i| format!("c::build -> t{i}.clone")));
    expected.sort();
    assert_eq!(calls, expected);
    for entry in &calls {
        let callee = entry.split_once(" -> ").unwrap().1;
        assert!(callee.chars().count() <= 120, "{entry}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn too_deep(test: &str, body: &str) -> ScanError {
    let lib = format!("// generated\nfn f(x: u8, a: bool) -> u8 {{\n    {body}\n}}\n");
    let dir = temp_crate(test, &[("src/lib.rs", &lib)]);
    let error = scan_dir(&dir, "d").scan().unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    error
}

/// 200,000 nested parentheses used to overflow the scan's stack, aborting the build script.
#[test]
fn a_file_nested_too_deep_is_refused_at_its_line() {
    let n = 200_000;
    let error = too_deep("parens", &format!("{}1{}", "(".repeat(n), ")".repeat(n)));
    let ScanError::TooDeep {
        file, line, column, ..
    } = &error
    else {
        panic!("{error}");
    };
    // The 256th parenthesis: with the function's braces, the 257th delimiter open.
    assert_eq!(
        (file.to_str(), *line, *column),
        (Some("src/lib.rs"), 3, 5 + 255)
    );
    assert!(
        error.to_string().starts_with(
            "src/lib.rs:3:260: more than 256 brackets, braces and parentheses are open"
        ),
        "{error}"
    );
}

/// Chains that nest without a delimiter: a million `+ 1`, long method chains, `!!!x`,
/// `return return ...`, `x as u8 as u8 ...`, `Vec<Vec<...>>`, else-if chains.
#[test]
fn chains_nested_too_deep_are_refused_at_their_line() {
    let cases = [
        ("plus", format!("1{}", " + 1".repeat(1_000_000))),
        ("methods", format!("x{}", ".m()".repeat(100_000))),
        ("not", format!("{}true as u8", "!".repeat(100_000))),
        ("return", format!("{}1", "return ".repeat(100_000))),
        ("cast", format!("x{}", " as u8".repeat(100_000))),
        (
            "generics",
            format!(
                "{{ let v: {}u8{} = x; 1 }}",
                "Vec<".repeat(5_000),
                ">".repeat(5_000)
            ),
        ),
        (
            "elseif",
            format!(
                "if a {{ 1 }}{} else {{ 2 }}",
                " else if a { 1 }".repeat(100_000)
            ),
        ),
    ];
    for (name, body) in cases {
        let error = too_deep(name, &body);
        assert!(
            matches!(
                &error,
                ScanError::TooDeep {
                    line: 3,
                    limit: 512,
                    ..
                }
            ),
            "{name}: {error}"
        );
    }
}

/// Long but shallow code is read: a big array, a long statement list, a 400-term sum, a
/// match with many arms, 500 doc lines on one item.
#[test]
fn long_but_shallow_code_is_read() {
    let array = (0..100_000)
        .map(|i| format!("-{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sum = (0..400)
        .map(|i| format!("x{i}"))
        .collect::<Vec<_>>()
        .join(" + ");
    let arms: String = (0..5_000)
        .map(|i| format!("        {i} => {{ g() }}\n"))
        .collect();
    let docs: String = (0..500).map(|i| format!("/// line {i}\n")).collect();
    let statements: String = (0..5_000).map(|_| "    g();\n").collect();
    let lib = format!(
        "//! {}\nconst A: &[i32] = &[{array}];\n{docs}fn f(x: u8) -> u8 {{\n    let s = {sum};\n    match x {{\n{arms}        _ => {{ g() }}\n    }}\n{statements}}}\nfn g() -> u8 {{ 0 }}\n",
        "inner doc\n//! ".repeat(600)
    );
    let dir = temp_crate("shallow", &[("src/lib.rs", &lib)]);
    let declared = scan_dir(&dir, "s").scan().unwrap();
    assert_eq!(edges(&declared), ["srv/module/s/f/1 -> srv/module/s/g/0"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Receiver typing follows `let` chains: 20,000 bindings each typed by the one before stay
/// linear (each expression is evaluated once, in source order, the one before it already
/// known) with no stack overflow, and every link is typed.
#[test]
fn a_long_chain_of_typed_lets_is_read_in_linear_time() {
    const LETS: usize = 20_000;
    let mut body = String::from("    let v0 = S::new();\n");
    for i in 1..LETS {
        body.push_str(&format!("    let v{i} = v{}.next();\n", i - 1));
    }
    let lib = format!(
        "pub struct S;\nimpl S {{\n    pub fn new() -> S {{ S }}\n    pub fn next(&self) -> S {{ S }}\n}}\npub fn long() {{\n{body}}}\n"
    );
    let dir = temp_crate("let-chain", &[("src/lib.rs", &lib)]);
    let started = std::time::Instant::now();
    let declared = scan_dir(&dir, "c").scan().unwrap();
    let took = started.elapsed();
    assert!(edges(&declared).contains(&"srv/module/c/long/0 -> srv/module/c/S::next/1".to_owned()));
    assert!(entries(&declared, "method_calls").is_empty());
    assert!(took.as_secs() < 30, "{took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A call through a trait with more impls than an edge to each can say anything about is
/// listed once in the bound rather than fanned out (300 impls, 300 calls: 90,000 edges
/// otherwise).
#[test]
fn a_trait_call_with_very_many_impls_is_listed_not_fanned_out() {
    const IMPLS: usize = 300;
    let mut lib = String::from("pub trait T { fn go(&self); }\n");
    for i in 0..IMPLS {
        lib.push_str(&format!(
            "pub struct S{i};\nimpl T for S{i} {{ fn go(&self) {{}} }}\n"
        ));
        lib.push_str(&format!("pub fn call{i}(t: &dyn T) {{ t.go(); }}\n"));
    }
    lib.push_str("pub trait Few { fn one(&self); }\npub struct A;\npub struct B;\n");
    lib.push_str("impl Few for A { fn one(&self) {} }\nimpl Few for B { fn one(&self) {} }\n");
    lib.push_str("pub fn few<F: Few>(f: F) { f.one(); }\n");
    let dir = temp_crate("dispatch", &[("src/lib.rs", &lib)]);
    let declared = scan_dir(&dir, "c").scan().unwrap();
    let traits = entries(&declared, "trait_calls");
    assert_eq!(traits.len(), IMPLS);
    assert!(traits.contains(&"c::call7 -> go through a trait (300 impls)".to_owned()));
    // Two impls: an edge to each, listed as dispatch.
    assert_eq!(
        entries(&declared, "dispatch_edges"),
        [
            "c::few -> c::<A as Few>::one",
            "c::few -> c::<B as Few>::one"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A macro's arguments are read as code only when shallow enough: a 200,000-term sum inside
/// `println!` (which the file's check does not estimate: macro arguments are tokens) is left
/// alone rather than parsed into a stack overflow.
#[test]
fn deep_macro_arguments_are_not_parsed() {
    let sum = vec!["f()"; 200_000].join(" + ");
    let lib = format!(
        "fn f() -> u32 {{ 1 }}\npub fn g() {{\n    println!(\"{{}}\", {sum});\n    println!(\"{{}}\", f());\n}}\n"
    );
    let dir = temp_crate("deep-macro", &[("src/lib.rs", &lib)]);
    let declared = scan_dir(&dir, "c").scan().unwrap();
    // The shallow one is read: `g` calls `f`.
    assert_eq!(edges(&declared), ["srv/module/c/g/0 -> srv/module/c/f/0"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bindings share their type expressions: `let b = if c { a } else { a };` sixty times over is
/// a graph of 2^60 paths, evaluated once per expression (memoised), not along each path.
#[test]
fn shared_bindings_are_evaluated_once_each() {
    const LETS: usize = 60;
    let mut body = String::from("    let v0 = make();\n");
    for i in 1..LETS {
        let p = i - 1;
        body.push_str(&format!(
            "    let v{i} = if c() {{ v{p} }} else {{ v{p} }};\n"
        ));
        body.push_str(&format!("    v{i}.missing();\n"));
    }
    let lib = format!("pub fn g() {{\n{body}}}\n");
    let dir = temp_crate("shared-lets", &[("src/lib.rs", &lib)]);
    let started = std::time::Instant::now();
    let declared = scan_dir(&dir, "c").scan().unwrap();
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    assert_eq!(entries(&declared, "method_calls").len(), LETS - 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
