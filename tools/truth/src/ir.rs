//! The textual LLVM IR rustc writes with `--emit=llvm-ir`: every function the module defines,
//! and the functions each one calls directly.
//!
//! Only what the comparison needs is read: a `define ... @SYMBOL(` line opens a body, a line
//! holding `}` alone closes it, and inside it every `call` or `invoke` instruction whose callee
//! is a symbol (`@name` or `@"quoted name"`) is a direct call. A callee that is a value
//! (`%5(...)`, a call through a vtable or a function pointer) is counted as indirect; calls of
//! LLVM intrinsics (`@llvm.*`) are skipped. Malformed text never panics: what cannot be read
//! is passed over.

/// One function the module defines: its symbol, as written after `@` (quotes and escapes
/// removed), and the symbols it calls directly, each once, in the order first seen.
///
/// ```
/// let module = beam_mcp_truth::ir::parse("define void @f() {\nstart:\n  call void @g()\n  ret void\n}\n");
/// assert_eq!(module.functions[0].symbol, "f");
/// assert_eq!(module.functions[0].callees, ["g"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defined {
    /// The function's symbol.
    pub symbol: String,
    /// The symbols it calls directly (`call` or `invoke`), each once.
    pub callees: Vec<String>,
}

/// The functions of one module, and how many calls in their bodies had no symbol for a callee.
///
/// ```
/// let module = beam_mcp_truth::ir::parse("define void @f(ptr %p) {\n  call void %p()\n  ret void\n}\n");
/// assert_eq!(module.indirect_calls, 1);
/// assert!(module.functions[0].callees.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Module {
    /// Every defined function, in the order of the file.
    pub functions: Vec<Defined>,
    /// Calls through a value (a vtable slot, a function pointer): not edges.
    pub indirect_calls: usize,
}

/// Reads the functions and direct calls of an LLVM IR module's text.
///
/// ```
/// let text = r#"
/// define internal void @"_RNvCs1_3app4main"() unnamed_addr #0 {
/// start:
///   %0 = invoke i32 @_RNvCs1_3app6helper(i32 1)
///           to label %bb1 unwind label %cleanup
/// bb1:
///   call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 8, i1 false)
///   ret void
/// }
/// "#;
/// let module = beam_mcp_truth::ir::parse(text);
/// assert_eq!(module.functions[0].symbol, "_RNvCs1_3app4main");
/// assert_eq!(module.functions[0].callees, ["_RNvCs1_3app6helper"]);
/// ```
pub fn parse(text: &str) -> Module {
    let mut module = Module::default();
    let mut current: Option<Defined> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(open) = &mut current {
            if trimmed == "}" {
                module.functions.extend(current.take());
                continue;
            }
            match call_target(trimmed) {
                Some(Callee::Symbol(symbol))
                    if !symbol.starts_with("llvm.") && !open.callees.contains(&symbol) =>
                {
                    open.callees.push(symbol);
                }
                Some(Callee::Value) => module.indirect_calls += 1,
                _ => {}
            }
        } else if let Some(rest) = trimmed.strip_prefix("define ") {
            // The first `@` of a `define` line starts the function's name: linkage, attributes
            // and the return type before it hold none.
            let symbol = rest
                .find('@')
                .and_then(|at| symbol_at(&rest[at + 1..]))
                .map(|(symbol, _)| symbol);
            if let Some(symbol) = symbol {
                // A body on one line (`define ... { ... }`) has nothing to read.
                if !trimmed.ends_with('}') {
                    current = Some(Defined {
                        symbol,
                        callees: Vec::new(),
                    });
                }
            }
        }
    }
    // A body the text never closed still counts.
    module.functions.extend(current);
    module
}

/// What a call instruction calls.
#[derive(Debug, PartialEq, Eq)]
enum Callee {
    /// A function by its symbol.
    Symbol(String),
    /// A value: a register or an expression.
    Value,
}

/// The callee of a `call`/`invoke` instruction (`tail call`, `%x = call ...` too), or `None`
/// when the line is no call.
fn call_target(line: &str) -> Option<Callee> {
    let mut offset = 0;
    let mut after = None;
    for word in line.split(' ') {
        if word == "call" || word == "invoke" {
            after = Some(offset + word.len());
            break;
        }
        // Only the words an instruction may start with come before the keyword.
        let leading = word.starts_with('%')
            || matches!(word, "=" | "tail" | "musttail" | "notail" | "")
            || word.starts_with("fast")
            || matches!(
                word,
                "nnan" | "ninf" | "nsz" | "arcp" | "contract" | "afn" | "reassoc"
            );
        if !leading {
            return None;
        }
        offset += word.len() + 1;
    }
    let rest = line.get(after?..)?;
    // The callee is the first name directly followed by `(`: return types, attributes and the
    // calling convention come before it, the arguments after it.
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'@' => {
                let (symbol, used) = symbol_at(&rest[i + 1..])?;
                if rest[i + 1 + used..].starts_with('(') {
                    return Some(Callee::Symbol(symbol));
                }
                i += 1 + used;
            }
            b'%' => {
                let (_, used) = symbol_at(&rest[i + 1..])?;
                if rest[i + 1 + used..].starts_with('(') {
                    return Some(Callee::Value);
                }
                i += 1 + used;
            }
            b'(' => {
                // A function type before the callee (`call i32 (ptr, ...) @printf(`): skip it.
                let close = matching_paren(&rest[i..])?;
                i += close + 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Where the parenthesis opening `text` closes, as a byte offset.
fn matching_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The LLVM name at the start of `text` (after its sigil): a bare name
/// (`[-a-zA-Z$._0-9]+`) or a quoted one with `\XX` escapes; with the bytes it took.
fn symbol_at(text: &str) -> Option<(String, usize)> {
    if let Some(quoted) = text.strip_prefix('"') {
        let end = quoted.find('"')?;
        let raw = &quoted[..end];
        return Some((unescape(raw), end + 2));
    }
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')))
        .unwrap_or(text.len());
    (end > 0).then(|| (text[..end].to_owned(), end))
}

/// A quoted LLVM name's `\XX` escapes (two hex digits) as the bytes they stand for.
fn unescape(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && let Some(hex) = raw.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines as rustc 1.95 wrote them for a small crate (`-C symbol-mangling-version=v0`).
    const SAMPLE: &str = r#"; ModuleID = 'sample.d1a6b0a0c1e1e5f5-cgu.0'
source_filename = "sample.d1a6b0a0c1e1e5f5-cgu.0"

; sample::generic::<sample::Fast>
; Function Attrs: uwtable
define internal i32 @_RINvCsg5P03tE4okC_6sample7genericNtB2_4FastEB2_(ptr align 1 %t) unnamed_addr #0 !dbg !250 {
start:
  %t.dbg.spill = alloca [8 x i8], align 8
  store ptr %t, ptr %t.dbg.spill, align 8
  %_0 = call i32 @_RNvYNtCsg5P03tE4okC_6sample4FastNtB4_6Engine8providedB4_(ptr align 1 %t), !dbg !258
  ret i32 %_0, !dbg !259
}

; sample::run
; Function Attrs: uwtable
define i32 @_RNvCsg5P03tE4okC_6sample3run(ptr align 1 %e.0, ptr align 8 %e.1) unnamed_addr #0 !dbg !300 {
start:
  %0 = getelementptr inbounds i8, ptr %e.1, i64 24
  %1 = load ptr, ptr %0, align 8, !invariant.load !4, !nonnull !4
  %_3 = call i32 %1(ptr align 1 %e.0), !dbg !310
  %_5 = call i32 @_RINvCsg5P03tE4okC_6sample7genericNtB2_4FastEB2_(ptr align 1 inttoptr (i64 1 to ptr)), !dbg !311
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %a, ptr align 8 %b, i64 24, i1 false), !dbg !312
  %_6 = call i32 @_RINvCsg5P03tE4okC_6sample7genericNtB2_4FastEB2_(ptr align 1 inttoptr (i64 1 to ptr)), !dbg !313
  invoke void @_RNvNtCsgEmfK2I1SDS_4core6option13unwrap_failed(ptr align 8 @alloc_75a3713f251cf84840fa969650f01ded) #17
          to label %unreachable unwind label %cleanup
unreachable:
  unreachable
}

declare i32 @rust_eh_personality(i32, i32, i64, ptr, ptr) unnamed_addr #3
"#;

    #[test]
    fn reads_defines_and_direct_calls() {
        let module = parse(SAMPLE);
        let symbols: Vec<&str> = module.functions.iter().map(|f| f.symbol.as_str()).collect();
        assert_eq!(
            symbols,
            [
                "_RINvCsg5P03tE4okC_6sample7genericNtB2_4FastEB2_",
                "_RNvCsg5P03tE4okC_6sample3run"
            ]
        );
        assert_eq!(
            module.functions[0].callees,
            ["_RNvYNtCsg5P03tE4okC_6sample4FastNtB4_6Engine8providedB4_"]
        );
        // The vtable call is indirect; the intrinsic is skipped; the repeated call counts once;
        // an `@alloc` argument is not the callee.
        assert_eq!(
            module.functions[1].callees,
            [
                "_RINvCsg5P03tE4okC_6sample7genericNtB2_4FastEB2_",
                "_RNvNtCsgEmfK2I1SDS_4core6option13unwrap_failed"
            ]
        );
        assert_eq!(module.indirect_calls, 1);
    }

    #[test]
    fn quoted_names_tail_calls_and_function_types() {
        let text = "define void @\"a\\22b\"() {\n  tail call void @\"x y\"()\n  %r = call i32 (ptr, ...) @printf(ptr @fmt)\n  store ptr @g, ptr %p\n}\n";
        let module = parse(text);
        assert_eq!(module.functions[0].symbol, "a\"b");
        assert_eq!(module.functions[0].callees, ["x y", "printf"]);
    }

    #[test]
    fn bad_input_is_passed_over() {
        for text in [
            "",
            "define",
            "define void @",
            "define void @\"unterminated",
            "define void @f() {\n  call void @\"open(\n  call (((\n",
            "}\n}\n call void @g()",
        ] {
            let _ = parse(text);
        }
        let module = parse("define void @f() {\n  call void @g()\n");
        assert_eq!(module.functions[0].callees, ["g"]);
    }

    #[test]
    fn a_call_word_elsewhere_is_no_call() {
        let module = parse("define void @f() {\n  store ptr @call, ptr %p\n  br label %call\n}\n");
        assert!(module.functions[0].callees.is_empty());
        assert_eq!(module.indirect_calls, 0);
    }
}
