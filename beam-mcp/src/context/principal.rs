//! The caller's identity as an `authorize` hook returned it: the value, type-erased for host
//! code, and a digest that a `requestState` binds (so that a state issued to one caller is
//! refused from another).

use std::any::Any;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};

/// The identity of whoever the transport let in.
#[derive(Clone)]
pub(crate) struct Principal {
    pub(crate) value: Arc<dyn Any + Send + Sync>,
    /// Computed at first use: most requests never need it (about 3,500 instructions of
    /// SHA-256 saved per request), and clones share it.
    digest: Arc<OnceLock<[u8; 32]>>,
    digest_of: fn(&(dyn Any + Send + Sync)) -> [u8; 32],
}

impl Principal {
    pub(crate) fn new<P: Any + Send + Sync + Hash>(principal: P) -> Self {
        Principal {
            value: Arc::new(principal),
            digest: Arc::new(OnceLock::new()),
            digest_of: digest_of::<P>,
        }
    }

    /// SHA-256 over the type's name and what its `Hash` impl writes: equal for equal principals
    /// of one type on every replica of one build.
    pub(crate) fn digest(&self) -> [u8; 32] {
        *self.digest.get_or_init(|| (self.digest_of)(&*self.value))
    }
}

fn digest_of<P: Any + Hash>(value: &(dyn Any + Send + Sync)) -> [u8; 32] {
    let mut hasher = DigestHasher(Sha256::new());
    hasher.0.update(std::any::type_name::<P>().as_bytes());
    hasher.0.update([0]);
    // `value` was made from a `P` by `Principal::new`, so the cast always holds; were it ever
    // to fail, the digest would still be the type's own, never another principal's.
    if let Some(principal) = value.downcast_ref::<P>() {
        principal.hash(&mut hasher);
    }
    hasher.0.finalize().into()
}

/// Feeds what a `Hash` impl writes into SHA-256 (std's hashers are keyed per process or not
/// stable across releases; a digest is neither).
struct DigestHasher(Sha256);

impl Hasher for DigestHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        // Never read: the digest is taken with `finalize`.
        0
    }
}

#[cfg(test)]
mod tests {
    use super::Principal;

    #[test]
    fn equal_principals_share_a_digest_and_others_do_not() {
        let alice = Principal::new("alice".to_owned());
        assert_eq!(alice.digest(), Principal::new("alice".to_owned()).digest());
        assert_ne!(alice.digest(), Principal::new("bob".to_owned()).digest());
        // The same bytes under another type are another principal.
        assert_ne!(alice.digest(), Principal::new("alice").digest());
        // A clone shares the digest computed once.
        assert_eq!(alice.clone().digest(), alice.digest());
        assert_eq!(alice.value.downcast_ref::<String>().unwrap(), "alice");
    }
}
