//! Icons and annotations as definitions: an icon file of the crate is read here, its type and
//! pixel size read from its bytes, and embedded as a `data:` URI; a URL is passed as written.

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::quote;

use beam_mcp_rules::attributes::{AnnotationsAttr, IconAttr};

use crate::errors::Errors;

/// The largest icon file embedded: its `data:` URI (a third larger) rides in every listing
/// that carries it.
const MOST_BYTES: usize = 64 * 1024;

/// `const { &[Icon, ...] }` for the icons, or `None` when there are none or one was refused
/// (its fault recorded).
pub(crate) fn icons(attrs: &[IconAttr], errors: &mut Errors) -> Option<TokenStream> {
    if attrs.is_empty() {
        return None;
    }
    let mut built = Vec::new();
    let mut tracked = Vec::new();
    for attr in attrs {
        match icon(attr) {
            Ok((tokens, file)) => {
                built.push(tokens);
                tracked.extend(file);
            }
            Err(e) => errors.push(e),
        }
    }
    (built.len() == attrs.len()).then(|| {
        // `include_bytes!` of each file makes cargo rebuild the crate when one changes.
        quote! {
            const {
                #( const _: &[u8] = ::core::include_bytes!(#tracked); )*
                &[#(#built),*]
            }
        }
    })
}

/// One icon as an `::beam_mcp::Icon` expression, and the file it embeds (absolute), if any.
pub(crate) fn icon(attr: &IconAttr) -> syn::Result<(TokenStream, Option<String>)> {
    let mut mime_type = attr.mime_type.as_ref().map(|m| m.value());
    let mut sizes: Vec<String> = attr.sizes.iter().map(|s| s.value()).collect();
    let (src, file) = if attr.is_file() {
        let embedded = embed(attr, mime_type.as_deref(), &sizes)?;
        mime_type = Some(embedded.mime_type.to_owned());
        if sizes.is_empty() {
            sizes = embedded.sizes;
        }
        (embedded.uri, Some(embedded.path))
    } else {
        (attr.src.value(), None)
    };
    let mut tokens = quote!(::beam_mcp::Icon::url(#src));
    if let Some(mime_type) = mime_type {
        tokens.extend(quote!(.with_mime_type(#mime_type)));
    }
    if !sizes.is_empty() {
        tokens.extend(quote!(.with_sizes(&[#(#sizes),*])));
    }
    if let Some(theme) = &attr.theme {
        let theme = match theme.value().as_str() {
            "dark" => quote!(::beam_mcp::IconTheme::Dark),
            _ => quote!(::beam_mcp::IconTheme::Light),
        };
        tokens.extend(quote!(.with_theme(#theme)));
    }
    Ok((tokens, file))
}

/// An icon file read into a `data:` URI.
struct Embedded {
    uri: String,
    mime_type: &'static str,
    sizes: Vec<String>,
    path: String,
}

/// Reads the file `attr.src` names (from the crate's root), refusing one that is missing,
/// too large, not the image its extension says, not the `mime_type` given, or not the pixel
/// size given.
fn embed(
    attr: &IconAttr,
    given_type: Option<&str>,
    given_sizes: &[String],
) -> syn::Result<Embedded> {
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| {
            syn::Error::new_spanned(
                &attr.src,
                "CARGO_MANIFEST_DIR is not set: icon files are read under cargo",
            )
        })?;
    embed_under(&root, attr, given_type, given_sizes)
}

/// [`embed`] with the crate's root given.
fn embed_under(
    root: &Path,
    attr: &IconAttr,
    given_type: Option<&str>,
    given_sizes: &[String],
) -> syn::Result<Embedded> {
    let refuse = |why: String| syn::Error::new_spanned(&attr.src, why);
    let relative = attr.src.value();
    let path = root.join(&relative);
    let bytes = std::fs::read(&path).map_err(|e| {
        refuse(format!(
            "cannot read the icon file {relative:?} (named from the crate's root, where its Cargo.toml is): {e}"
        ))
    })?;
    if bytes.len() > MOST_BYTES {
        return Err(refuse(format!(
            "the icon file {relative:?} is {} bytes; an embedded icon is at most {MOST_BYTES} bytes (it is sent in every listing that shows it): make it smaller, or serve it at an https: URL",
            bytes.len()
        )));
    }
    let by_name = extension_type(&relative).ok_or_else(|| {
        refuse(format!(
            "{relative:?} is not named as an icon: its extension is one of .png, .jpg, .jpeg, .svg, .webp, .gif, .ico"
        ))
    })?;
    let (by_bytes, pixels) = sniff(&bytes).ok_or_else(|| {
        refuse(format!(
            "{relative:?} is not an image: its bytes are not PNG, JPEG, SVG, WebP, GIF or ICO"
        ))
    })?;
    if by_bytes != by_name {
        return Err(refuse(format!(
            "{relative:?} is named as {by_name}, but its bytes are {by_bytes}"
        )));
    }
    if let Some(given) = given_type
        && given != by_bytes
    {
        return Err(refuse(format!(
            "mime_type says {given}, but {relative:?} is {by_bytes}"
        )));
    }
    let measured = match pixels {
        Some((w, h)) => vec![format!("{w}x{h}")],
        None if by_bytes == "image/svg+xml" => vec!["any".to_owned()],
        None => Vec::new(),
    };
    if let Some((w, h)) = pixels
        && let Some(wrong) = given_sizes.iter().find(|s| **s != format!("{w}x{h}"))
    {
        return Err(refuse(format!(
            "sizes says {wrong:?}, but {relative:?} is {w}x{h} pixels"
        )));
    }
    Ok(Embedded {
        uri: format!("data:{by_bytes};base64,{}", base64(&bytes)),
        mime_type: by_bytes,
        sizes: measured,
        path: path.to_string_lossy().into_owned(),
    })
}

/// The image type a file's name says.
fn extension_type(path: &str) -> Option<&'static str> {
    let extension = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match extension.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        _ => return None,
    })
}

/// The image type a file's bytes say, and its width and height when the header gives them.
fn sniff(bytes: &[u8]) -> Option<(&'static str, Option<(u32, u32)>)> {
    let be32 = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let le16 = |at: usize| {
        Some(u32::from(u16::from_le_bytes(
            bytes.get(at..at + 2)?.try_into().ok()?,
        )))
    };
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        // The first chunk is IHDR: width, then height.
        let pixels = (bytes.get(12..16) == Some(b"IHDR")).then(|| Some((be32(16)?, be32(20)?)));
        return Some(("image/png", pixels.flatten()));
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Some(("image/gif", le16(6).zip(le16(8))));
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Some(("image/jpeg", jpeg_size(bytes)));
    }
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        // The extended header (VP8X) holds the canvas: 24-bit width and height, less one.
        let le24 = |at: usize| {
            let b = bytes.get(at..at + 3)?;
            Some(u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16)
        };
        let pixels = (bytes.get(12..16) == Some(b"VP8X"))
            .then(|| Some((le24(24)? + 1, le24(27)? + 1)))
            .flatten();
        return Some(("image/webp", pixels));
    }
    if bytes.starts_with(&[0, 0, 1, 0]) && bytes.len() >= 22 {
        // The first image of the directory; 0 stands for 256.
        let side = |b: u8| if b == 0 { 256 } else { u32::from(b) };
        return Some(("image/x-icon", Some((side(bytes[6]), side(bytes[7])))));
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let starts_like_xml = ["<svg", "<?xml", "<!--", "<!DOCTYPE svg"]
        .iter()
        .any(|start| text.starts_with(start));
    (starts_like_xml && text.contains("<svg")).then_some(("image/svg+xml", None))
}

/// A JPEG's size, from its first start-of-frame segment.
fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let mut at = 2;
    while at + 9 < bytes.len() {
        if bytes[at] != 0xFF {
            return None;
        }
        let marker = bytes[at + 1];
        let length = usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
        // SOF0 to SOF15, but not DHT (C4), JPG (C8) or DAC (CC).
        if (0xC0..=0xCF).contains(&marker) && ![0xC4, 0xC8, 0xCC].contains(&marker) {
            let height = u16::from_be_bytes([bytes[at + 5], bytes[at + 6]]);
            let width = u16::from_be_bytes([bytes[at + 7], bytes[at + 8]]);
            return Some((u32::from(width), u32::from(height)));
        }
        at += 2 + length;
    }
    None
}

/// Standard, padded base64.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `::beam_mcp::Annotations` for a resource's `annotations(...)`, checked by the parser.
pub(crate) fn annotations(attr: &AnnotationsAttr) -> TokenStream {
    let mut tokens = quote!(::beam_mcp::Annotations::NONE);
    if !attr.audience.is_empty() {
        let roles = attr
            .audience
            .iter()
            .map(|role| match role.value().as_str() {
                "user" => quote!(::beam_mcp::Role::User),
                _ => quote!(::beam_mcp::Role::Assistant),
            });
        tokens.extend(quote!(.with_audience(&[#(#roles),*])));
    }
    if let Some((value, _)) = attr.priority {
        let value = proc_macro2::Literal::f64_suffixed(value);
        tokens.extend(quote!(.with_priority(::beam_mcp::Priority::__checked(#value))));
    }
    if let Some((_, (seconds, nanos))) = attr.last_modified {
        tokens.extend(
            quote!(.with_last_modified(::beam_mcp::Timestamp::from_unix(#seconds, #nanos))),
        );
    }
    tokens
}

/// `beam_mcp::icon!("assets/logo.png")` (or with the options of `icon(...)`): one icon, as
/// a constant expression.
pub(crate) fn icon_macro(input: TokenStream) -> syn::Result<TokenStream> {
    // The same grammar as the attribute's option: `icon = "..."` or `icon(...)`.
    let option = if syn::parse2::<syn::LitStr>(input.clone()).is_ok() {
        quote!(icon = #input)
    } else {
        quote!(icon(#input))
    };
    let attr = beam_mcp_rules::attributes::ToolAttr::parse(option)?;
    let Some(icon_attr) = attr.icons.first() else {
        return Err(syn::Error::new(
            Span::call_site(),
            "write beam_mcp::icon!(\"assets/icon.png\")",
        ));
    };
    let (tokens, file) = icon(icon_attr)?;
    let tracked = file.into_iter();
    Ok(quote! {
        const {
            #( const _: &[u8] = ::core::include_bytes!(#tracked); )*
            #tokens
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_pads_as_the_standard_says() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xFF, 0xEE, 0xDD, 0x00]), "/+7dAA==");
    }

    /// The icon `option` (an attribute option), embedded from a root holding `files`.
    fn embedded(option: &str, files: &[(&str, &[u8])]) -> Result<Embedded, String> {
        let root = std::env::temp_dir().join(format!(
            "beam-mcp-icons-{}-{}",
            std::process::id(),
            files.len() + option.len()
        ));
        std::fs::create_dir_all(&root).unwrap();
        for (name, bytes) in files {
            std::fs::write(root.join(name), bytes).unwrap();
        }
        let attr = beam_mcp_rules::attributes::ToolAttr::parse(option.parse().unwrap()).unwrap();
        let icon = &attr.icons[0];
        let given_type = icon.mime_type.as_ref().map(|m| m.value());
        let sizes: Vec<String> = icon.sizes.iter().map(|s| s.value()).collect();
        let out =
            embed_under(&root, icon, given_type.as_deref(), &sizes).map_err(|e| e.to_string());
        std::fs::remove_dir_all(&root).unwrap();
        out
    }

    fn png(width: u8, height: u8) -> Vec<u8> {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend([0, 0, 0, width, 0, 0, 0, height, 8, 6, 0, 0, 0]);
        png
    }

    #[test]
    fn a_file_is_refused_unless_it_is_the_image_it_says() {
        let good = embedded(r#"icon = "a.png""#, &[("a.png", &png(48, 48))]).unwrap();
        assert_eq!(good.mime_type, "image/png");
        assert_eq!(good.sizes, ["48x48"]);
        assert!(good.uri.starts_with("data:image/png;base64,iVBORw0KGgo"));
        fn refusal(option: &str, files: &[(&str, &[u8])]) -> String {
            embedded(option, files).err().unwrap()
        }
        assert_eq!(
            refusal(r#"icon = "a.png""#, &[("a.png", b"<svg xmlns='x'/>")]),
            r#""a.png" is named as image/png, but its bytes are image/svg+xml"#
        );
        assert_eq!(
            refusal(
                r#"icon(src = "a.png", mime_type = "image/jpeg")"#,
                &[("a.png", &png(1, 1))]
            ),
            r#"mime_type says image/jpeg, but "a.png" is image/png"#
        );
        assert_eq!(
            refusal(
                r#"icon(src = "a.png", sizes = ["32x32"])"#,
                &[("a.png", &png(48, 48))]
            ),
            r#"sizes says "32x32", but "a.png" is 48x48 pixels"#
        );
        assert_eq!(
            refusal(r#"icon = "a.png""#, &[("a.png", b"not an image")]),
            r#""a.png" is not an image: its bytes are not PNG, JPEG, SVG, WebP, GIF or ICO"#
        );
        let big = vec![b' '; MOST_BYTES + 1];
        assert!(refusal(r#"icon = "a.svg""#, &[("a.svg", &big)]).contains("is 65537 bytes"));
        assert!(
            refusal(r#"icon = "gone.png""#, &[])
                .starts_with("cannot read the icon file \"gone.png\"")
        );
    }

    #[test]
    fn headers_give_the_type_and_size() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend([0, 0, 0, 48, 0, 0, 0, 32]);
        assert_eq!(sniff(&png), Some(("image/png", Some((48, 32)))));
        let gif = b"GIF89a\x10\x00\x20\x00";
        assert_eq!(sniff(gif), Some(("image/gif", Some((16, 32)))));
        let jpeg = [
            0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0, 24, 0, 64, 3, 0, 0,
        ];
        assert_eq!(sniff(&jpeg), Some(("image/jpeg", Some((64, 24)))));
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
            Some(("image/svg+xml", None))
        );
        assert_eq!(sniff(b"<html><svg/></html>"), None);
        assert_eq!(sniff(b"plain text"), None);
    }
}
