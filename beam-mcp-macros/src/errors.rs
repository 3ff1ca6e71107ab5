//! Every fault of an item, collected (the shape of serde_derive's `Ctxt`): the checks go on
//! after the first refusal, so one build reports them all, each on its own span.

use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// The faults found so far in one item.
#[derive(Default)]
pub(crate) struct Errors {
    found: Vec<syn::Error>,
}

impl Errors {
    /// A fault at `span`.
    pub(crate) fn at(&mut self, span: Span, message: impl Display) {
        self.found.push(syn::Error::new(span, message));
    }

    /// A fault spanning the tokens of `tokens`.
    pub(crate) fn spanned(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.found.push(syn::Error::new_spanned(tokens, message));
    }

    /// A fault found by a parser or a check of its own.
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.found.push(error);
    }

    /// The value of `result`, or `None` with its fault recorded.
    pub(crate) fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    /// `Ok` when nothing was found; otherwise every fault, in the order found.
    pub(crate) fn finish(self) -> syn::Result<()> {
        let mut found = self.found.into_iter();
        match found.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(found);
                Err(first)
            }
        }
    }
}
