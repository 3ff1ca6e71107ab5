//! TLS for `https://` endpoints (feature `client-https`): rustls with ring as its one provider
//! (so nothing process-wide has to be installed first), the system's roots unless the host
//! gives its own configuration.

use std::sync::{Arc, OnceLock};

use rustls::ClientConfig;
use rustls::pki_types::ServerName;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

/// The configuration built from the system's roots, once per process: reading them is a few
/// milliseconds of file reading that every connection would otherwise repeat.
static SYSTEM: OnceLock<Result<Arc<ClientConfig>, String>> = OnceLock::new();

/// A configuration trusting the system's roots (`rustls-native-certs`: the platform's store,
/// or `SSL_CERT_FILE`/`SSL_CERT_DIR` where set).
pub(crate) fn system() -> Result<Arc<ClientConfig>, String> {
    SYSTEM
        .get_or_init(|| {
            let found = rustls_native_certs::load_native_certs();
            let mut roots = rustls::RootCertStore::empty();
            let (added, _unusable) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                let errors: Vec<String> = found.errors.iter().map(|e| e.to_string()).collect();
                return Err(format!(
                    "no root certificate found on this system ({}); give the client a \
                     configuration of your own (ClientBuilder::tls)",
                    if errors.is_empty() {
                        "the store is empty".to_owned()
                    } else {
                        errors.join("; ")
                    }
                ));
            }
            with_roots(roots).map(Arc::new)
        })
        .clone()
}

/// A client configuration on ring trusting `roots`, at rustls's safe protocol versions.
// rustls 0.23.48 deprecates ring's provider for want of post-quantum key exchange; ring stays
// the workspace's one provider (aws-lc-rs needs cmake and a C build), and a host wanting
// post-quantum groups gives its own configuration (`ClientBuilder::tls`).
#[allow(deprecated)]
pub(crate) fn with_roots(roots: rustls::RootCertStore) -> Result<ClientConfig, String> {
    ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map(|builder| builder.with_root_certificates(roots).with_no_client_auth())
        .map_err(|e| format!("TLS configuration: {e}"))
}

/// Opens TLS on `stream` to `host` (the name the certificate must carry, or an IP address).
pub(crate) async fn open(
    stream: TcpStream,
    host: &str,
    config: Arc<ClientConfig>,
) -> Result<TlsStream<TcpStream>, String> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let name = ServerName::try_from(bare.to_owned())
        .map_err(|e| format!("{host:?} is no name a certificate can carry: {e}"))?;
    TlsConnector::from(config)
        .connect(name, stream)
        .await
        .map_err(|e| format!("TLS with {host}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configuration_is_built_on_ring_without_a_process_provider() {
        let config = with_roots(rustls::RootCertStore::empty()).unwrap();
        assert!(
            config.alpn_protocols.is_empty(),
            "HTTP/1.1 only: no ALPN asked"
        );
    }
}
