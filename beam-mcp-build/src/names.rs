//! How the scan names what it sees: functions (the `name` of an `mfa` node) and any item it
//! lists in the bound.

use syn::{ImplItem, Item, ItemImpl, TraitItem};

use crate::spell::spell;

/// An identifier without `r#`.
pub(crate) fn ident(ident: &syn::Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").unwrap_or(&text).to_owned()
}

/// What an impl block's functions are named under: `Type` for an inherent impl,
/// `<Type as Trait>` for a trait impl (Rust's own qualified spelling), generics as written.
pub(crate) fn impl_owner(block: &ItemImpl) -> String {
    let ty = spell(&block.self_ty);
    match &block.trait_ {
        Some((bang, path, _)) => {
            let not = if bang.is_some() { "!" } else { "" };
            format!("<{ty} as {not}{}>", spell(path))
        }
        None => ty,
    }
}

/// `impl Type` or `impl Trait for Type`, for an impl block listed by name.
fn impl_label(block: &ItemImpl) -> String {
    match &block.trait_ {
        Some((bang, path, _)) => {
            let not = if bang.is_some() { "!" } else { "" };
            format!("impl {not}{} for {}", spell(path), spell(&block.self_ty))
        }
        None => format!("impl {}", spell(&block.self_ty)),
    }
}

/// An item's name under the path `within` (a module, or a function for items in its body).
pub(crate) fn item(within: &str, item: &Item) -> String {
    let name = match item {
        Item::Fn(f) => ident(&f.sig.ident),
        Item::Mod(m) => ident(&m.ident),
        Item::Struct(s) => ident(&s.ident),
        Item::Enum(e) => ident(&e.ident),
        Item::Union(u) => ident(&u.ident),
        Item::Trait(t) => ident(&t.ident),
        Item::TraitAlias(t) => ident(&t.ident),
        Item::Type(t) => ident(&t.ident),
        Item::Const(c) => ident(&c.ident),
        Item::Static(s) => ident(&s.ident),
        Item::Impl(block) => impl_label(block),
        Item::Use(u) => format!("use {}", spell(&u.tree)),
        Item::Macro(m) => match &m.ident {
            Some(name) => format!("macro_rules! {}", ident(name)),
            None => format!("{}!", spell(&m.mac.path)),
        },
        Item::ExternCrate(e) => format!("extern crate {}", ident(&e.ident)),
        Item::ForeignMod(_) => "extern block".to_owned(),
        _ => "unparsed item".to_owned(),
    };
    format!("{within}::{name}")
}

/// An impl item's name: `module::Type::f`, `module::<Type as Trait>::f`.
pub(crate) fn impl_item(module: &str, owner: &str, item: &ImplItem) -> String {
    let name = match item {
        ImplItem::Fn(f) => ident(&f.sig.ident),
        ImplItem::Const(c) => ident(&c.ident),
        ImplItem::Type(t) => ident(&t.ident),
        ImplItem::Macro(m) => format!("{}!", spell(&m.mac.path)),
        _ => "unparsed item".to_owned(),
    };
    format!("{module}::{owner}::{name}")
}

/// A trait item's name: `module::Trait::f`.
pub(crate) fn trait_item(module: &str, owner: &str, item: &TraitItem) -> String {
    let name = match item {
        TraitItem::Fn(f) => ident(&f.sig.ident),
        TraitItem::Const(c) => ident(&c.ident),
        TraitItem::Type(t) => ident(&t.ident),
        TraitItem::Macro(m) => format!("{}!", spell(&m.mac.path)),
        _ => "unparsed item".to_owned(),
    };
    format!("{module}::{owner}::{name}")
}

/// The attributes of any item, to evaluate their `#[cfg]` (an unparsed item has none).
pub(crate) fn item_attrs(item: &mut Item) -> Option<&mut Vec<syn::Attribute>> {
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::ExternCrate(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::ForeignMod(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::TraitAlias(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}

/// The attributes of an impl item.
pub(crate) fn impl_item_attrs(item: &mut ImplItem) -> Option<&mut Vec<syn::Attribute>> {
    Some(match item {
        ImplItem::Const(i) => &mut i.attrs,
        ImplItem::Fn(i) => &mut i.attrs,
        ImplItem::Type(i) => &mut i.attrs,
        ImplItem::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

/// The attributes of a trait item.
pub(crate) fn trait_item_attrs(item: &mut TraitItem) -> Option<&mut Vec<syn::Attribute>> {
    Some(match item {
        TraitItem::Const(i) => &mut i.attrs,
        TraitItem::Fn(i) => &mut i.attrs,
        TraitItem::Type(i) => &mut i.attrs,
        TraitItem::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}
