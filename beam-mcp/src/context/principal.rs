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
    /// The value and its digest, in one allocation that clones share (none for `()`, whose
    /// one value every request shares).
    shared: Arc<dyn Identity>,
    /// A key that tells principals apart within this process (a share of a bound is counted
    /// under it): keyed SipHash, far cheaper than the digest; `None` when `authorize` returned
    /// `()`, which tells no caller from another.
    #[cfg(feature = "http")]
    share_key: Option<u64>,
}

/// A principal's value with its digest, computed at first use: most requests never need it
/// (about 3,500 instructions of SHA-256 saved per request).
struct Shared<P> {
    digest: OnceLock<[u8; 32]>,
    value: P,
}

/// What a principal of any type gives: its value, type-erased, and its digest.
trait Identity: Send + Sync {
    fn value(&self) -> &(dyn Any + Send + Sync);
    fn digest(&self) -> [u8; 32];
}

impl<P: Any + Send + Sync + Hash> Identity for Shared<P> {
    fn value(&self) -> &(dyn Any + Send + Sync) {
        &self.value
    }

    fn digest(&self) -> [u8; 32] {
        *self.digest.get_or_init(|| digest_of(&self.value))
    }
}

impl Principal {
    pub(crate) fn new<P: Any + Send + Sync + Hash>(principal: P) -> Self {
        #[cfg(feature = "http")]
        let share_key = share_key(&principal);
        let shared: Arc<dyn Identity> =
            if std::any::TypeId::of::<P>() == std::any::TypeId::of::<()>() {
                // The anonymous principal, as most `authorize` hooks return it: one for all.
                static ANONYMOUS: OnceLock<Arc<dyn Identity>> = OnceLock::new();
                Arc::clone(ANONYMOUS.get_or_init(|| {
                    Arc::new(Shared {
                        digest: OnceLock::new(),
                        value: (),
                    })
                }))
            } else {
                Arc::new(Shared {
                    digest: OnceLock::new(),
                    value: principal,
                })
            };
        Principal {
            shared,
            #[cfg(feature = "http")]
            share_key,
        }
    }

    /// The value `authorize` returned, for host code to downcast.
    pub(crate) fn value(&self) -> &(dyn Any + Send + Sync) {
        self.shared.value()
    }

    /// The key of this principal's shares (`None`: an anonymous principal, `()`, which tells
    /// no caller from another, so no share of its own).
    #[cfg(feature = "http")]
    pub(crate) fn share_key(&self) -> Option<u64> {
        self.share_key
    }

    /// False for the anonymous principal `()`, which tells no caller from another: a share of
    /// a bound is then not counted for it (its callers are held to the bound alone).
    pub(crate) fn tells_callers_apart(&self) -> bool {
        self.value().type_id() != std::any::TypeId::of::<()>()
    }

    /// SHA-256 over the type's name and what its `Hash` impl writes: equal for equal principals
    /// of one type on every replica of one build.
    pub(crate) fn digest(&self) -> [u8; 32] {
        self.shared.digest()
    }
}

#[cfg(feature = "http")]
fn share_key<P: Any + Hash>(principal: &P) -> Option<u64> {
    use std::hash::BuildHasher;
    if std::any::TypeId::of::<P>() == std::any::TypeId::of::<()>() {
        return None;
    }
    // Keyed once per process: a caller cannot choose principals that collide.
    static KEYS: OnceLock<std::hash::RandomState> = OnceLock::new();
    let mut hasher = KEYS.get_or_init(std::hash::RandomState::new).build_hasher();
    std::any::TypeId::of::<P>().hash(&mut hasher);
    principal.hash(&mut hasher);
    Some(hasher.finish())
}

fn digest_of<P: Hash>(value: &P) -> [u8; 32] {
    let mut hasher = DigestHasher(Sha256::new());
    hasher.0.update(std::any::type_name::<P>().as_bytes());
    hasher.0.update([0]);
    value.hash(&mut hasher);
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
        assert_eq!(alice.value().downcast_ref::<String>().unwrap(), "alice");
        // Share keys tell the same principals apart; `()` has none.
        #[cfg(feature = "http")]
        share_keys(&alice);
    }

    #[cfg(feature = "http")]
    fn share_keys(alice: &Principal) {
        assert_eq!(
            alice.share_key(),
            Principal::new("alice".to_owned()).share_key()
        );
        assert_ne!(
            alice.share_key(),
            Principal::new("bob".to_owned()).share_key()
        );
        assert_ne!(alice.share_key(), Principal::new("alice").share_key());
        assert!(alice.share_key().is_some());
        assert_eq!(Principal::new(()).share_key(), None);
        assert!(!Principal::new(()).tells_callers_apart());
        assert!(alice.tells_callers_apart());
    }
}
