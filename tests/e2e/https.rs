//! beam-mcp's client over `https://` (feature `client-https`): the weather example's HTTP
//! process behind a TLS front on 127.0.0.1 (rustls on the server side too, a test CA the client
//! is given), every call made with exact values at both revisions (the 2025-11-25 session's GET
//! stream over TLS as well), and the certificates a client must refuse refused by name: one the
//! system's roots do not trust, one for another name, and a plain-text server spoken to as TLS.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use beam_mcp::client::{Client, rustls};
use beam_mcp::protocol::Revision;
use beam_mcp_tests::{HttpServerProcess, workspace_binary};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::client::{booking, exercise};

// A CA and a certificate for `localhost` it signed (EC P-256, valid to 2126), made once with
// `openssl` for these tests only: `openssl ecparam -genkey`, `req -x509` for the CA, and the
// server's certificate with `subjectAltName=DNS:localhost` and `extendedKeyUsage=serverAuth`.
/// The test CA.
const CA: &str = "-----BEGIN CERTIFICATE-----\n\
MIIBnjCCAUOgAwIBAgIUec/cJXY2RIQRQvK49/VoU/kLcI0wCgYIKoZIzj0EAwIw\n\
GzEZMBcGA1UEAwwQYmVhbS1tY3AgdGVzdCBDQTAgFw0yNjEyMDYwMDAzMjJaGA8y\n\
MTI2MTExMjAwMDMyMlowGzEZMBcGA1UEAwwQYmVhbS1tY3AgdGVzdCBDQTBZMBMG\n\
ByqGSM49AgEGCCqGSM49AwEHA0IABHw2ZMSOXcgosbvX24mKIzV7SXbPFs+fdCSs\n\
GSdP+Ws0kYeOrY4/S4kkVQD0I7VkiSCpUYRgVAXQBVEVXtBT6cijYzBhMB0GA1Ud\n\
DgQWBBQ01LBM2ZrwhZc1j0F8dJFMy8rrpzAfBgNVHSMEGDAWgBQ01LBM2ZrwhZc1\n\
j0F8dJFMy8rrpzAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAKBggq\n\
hkjOPQQDAgNJADBGAiEA+uNNfCbr8ElgE/fztKI7YCqF+8e6UeGZIprProx9cEcC\n\
IQDlSWqufgb5LvpKk0ERXZDf3QgbBw+1hu2GnlpSBM825Q==\n\
-----END CERTIFICATE-----\n";
/// `localhost`, signed by [`CA`].
const CERTIFICATE: &str = "-----BEGIN CERTIFICATE-----\n\
MIIBvTCCAWOgAwIBAgIUVwiNQWVu+q463B8sJkUtaDhs8qMwCgYIKoZIzj0EAwIw\n\
GzEZMBcGA1UEAwwQYmVhbS1tY3AgdGVzdCBDQTAgFw0yNjEyMDYwMDAzMjJaGA8y\n\
MTI2MTExMjAwMDMyMlowFDESMBAGA1UEAwwJbG9jYWxob3N0MFkwEwYHKoZIzj0C\n\
AQYIKoZIzj0DAQcDQgAENk0wgvB0JS7QPwr8kmNJx04nmP3ny1gciaqYODiOB6ci\n\
2F5ieYQb7wkwLdRT4fsjPvPuckVhN88J3LFpjH/KGaOBiTCBhjAUBgNVHREEDTAL\n\
gglsb2NhbGhvc3QwCQYDVR0TBAIwADATBgNVHSUEDDAKBggrBgEFBQcDATAOBgNV\n\
HQ8BAf8EBAMCB4AwHQYDVR0OBBYEFIuPrAUxqKW382VittVbYRPis+otMB8GA1Ud\n\
IwQYMBaAFDTUsEzZmvCFlzWPQXx0kUzLyuunMAoGCCqGSM49BAMCA0gAMEUCIBxt\n\
uB/sSbl5RAtTJKk0hVSk5f6Ss/NtnHr1AM9lJ1InAiEA9F27AVVIbihc87WoPT6o\n\
7SaLf9yVS2+amS3P+i88XGE=\n\
-----END CERTIFICATE-----\n";
/// [`CERTIFICATE`]'s key.
const KEY: &str = "-----BEGIN PRIVATE KEY-----\n\
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgDhBvczS19Ti4tTHr\n\
rvaUEMYa8F0/PcLBcHY3EW57xtWhRANCAAQ2TTCC8HQlLtA/CvySY0nHTieY/efL\n\
WByJqpg4OI4HpyLYXmJ5hBvvCTAt1FPh+yM+8+5yRWE3zwncsWmMf8oZ\n\
-----END PRIVATE KEY-----\n";

/// A TLS front on 127.0.0.1 for the plain HTTP server at `backend`: each connection's TLS ends
/// here and its bytes go on to the backend. Its port, and the count of handshakes completed.
async fn tls_front(backend: SocketAddr) -> (u16, Arc<AtomicUsize>) {
    let config = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from_pem_slice(CERTIFICATE.as_bytes()).unwrap()],
            PrivateKeyDer::from_pem_slice(KEY.as_bytes()).unwrap(),
        )
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let handshakes = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&handshakes);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            let counted = Arc::clone(&counted);
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(socket).await else {
                    return;
                };
                counted.fetch_add(1, Ordering::SeqCst);
                let Ok(mut plain) = tokio::net::TcpStream::connect(backend).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    (port, handshakes)
}

/// A client configuration trusting the test CA only.
fn trusting_the_test_ca() -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(CA.as_bytes()).unwrap())
        .unwrap();
    Arc::new(
        rustls::ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_https_every_call_is_made_at_both_revisions() {
    let server = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let (port, handshakes) = tls_front(server.addr).await;
    let url = format!("https://localhost:{port}/mcp");
    for revision in [None, Some(Revision::V2025_11_25)] {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let mut builder = booking(Arc::clone(&asked)).tls(trusting_the_test_ca());
        if let Some(revision) = revision {
            builder = builder.revision(revision);
        }
        let before = handshakes.load(Ordering::SeqCst);
        let client = builder.http(&url, Vec::new()).await.unwrap();
        assert_eq!(client.revision(), revision.unwrap_or(Revision::V2026_07_28));
        exercise(&client, &asked).await;
        assert!(
            handshakes.load(Ordering::SeqCst) > before,
            "the calls went through the TLS front"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn certificates_a_client_must_refuse_are_refused_by_name() {
    let server = HttpServerProcess::spawn(&workspace_binary("weather", "weather"));
    let (port, handshakes) = tls_front(server.addr).await;
    let refusal = |builder: beam_mcp::client::ClientBuilder, url: String| async move {
        let outcome = builder
            .revision(Revision::V2026_07_28)
            .http(&url, Vec::new())
            .await;
        outcome.expect_err("refused").to_string()
    };
    // The system's roots (the default) do not trust the test CA.
    let untrusted = refusal(Client::builder(), format!("https://localhost:{port}/mcp")).await;
    assert!(
        untrusted.contains("TLS with localhost") && untrusted.contains("UnknownIssuer"),
        "{untrusted}"
    );
    // Trusted, but the certificate names `localhost`, not 127.0.0.1.
    let misnamed = refusal(
        Client::builder().tls(trusting_the_test_ca()),
        format!("https://127.0.0.1:{port}/mcp"),
    )
    .await;
    assert!(
        misnamed.contains("TLS with 127.0.0.1")
            && misnamed.contains("not valid for name \"127.0.0.1\""),
        "{misnamed}"
    );
    assert_eq!(
        handshakes.load(Ordering::SeqCst),
        0,
        "no handshake completed"
    );
    // A plain-text server spoken to as TLS.
    let plain = refusal(
        Client::builder().tls(trusting_the_test_ca()),
        format!("https://localhost:{}/mcp", server.addr.port()),
    )
    .await;
    assert!(plain.contains("TLS with localhost"), "{plain}");
    // The same server over `http://` still answers: nothing above broke it.
    let client = Client::builder()
        .http(&format!("http://{}/mcp", server.addr), Vec::new())
        .await
        .unwrap();
    assert!(!client.list_tools().await.unwrap().is_empty());
}
