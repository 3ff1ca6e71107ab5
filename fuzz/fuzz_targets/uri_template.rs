//! URI template parsing and matching: a template and a URI, split at the first NUL. A matched
//! URI's variables are its own substrings, one per variable, and a static template matches only
//! itself.
#![no_main]

use beam_mcp_rules::UriTemplate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (template, uri) = text.split_once('\0').unwrap_or((text, text));
    let Ok(parsed) = UriTemplate::parse(template) else {
        return;
    };
    let _ = parsed.shape();
    if let Some(variables) = parsed.matches(uri) {
        assert_eq!(variables.len(), parsed.variables().count());
        for (name, value) in &variables {
            assert!(parsed.variables().any(|v| v == *name));
            let within = uri.as_ptr() as usize..=uri.as_ptr() as usize + uri.len();
            assert!(within.contains(&(value.as_ptr() as usize)));
        }
        if parsed.is_static() {
            assert_eq!(template, uri);
        }
    }
});
