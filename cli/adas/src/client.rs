//! The suite a client command talks to: its address and the API key presented.

use adas_runtime::auth::{AuthChannel, Credentials};
use tonic::transport::Channel;

use crate::fail::Failure;

/// Where client commands connect, with which credentials.
#[derive(Debug, Clone)]
pub struct Client {
    /// The suite's address (`http://host:port`).
    pub server: String,
    credentials: Credentials,
    tls: Option<tonic::transport::ClientTlsConfig>,
}

impl Client {
    /// A client of `server` presenting `api_key` (none in dev mode).
    pub fn new(server: &str, api_key: Option<&str>) -> Result<Self, String> {
        Ok(Self {
            server: crate::fail::with_scheme(server),
            credentials: Credentials::new(api_key)?,
            tls: None,
        })
    }

    /// Verifies an `https://` server with the CA in `ca` (PEM).
    pub fn with_ca(mut self, ca: Option<&std::path::Path>) -> Result<Self, String> {
        if let Some(path) = ca {
            let pem =
                std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))?;
            self.tls = Some(
                tonic::transport::ClientTlsConfig::new()
                    .ca_certificate(tonic::transport::Certificate::from_pem(pem)),
            );
        }
        Ok(self)
    }

    fn endpoint(&self) -> Result<tonic::transport::Endpoint, String> {
        let mut endpoint = Channel::from_shared(self.server.clone())
            .map_err(|error| format!("`{}`: {error}", self.server))?;
        if let Some(tls) = self
            .tls
            .clone()
            .filter(|_| self.server.starts_with("https://"))
        {
            endpoint = endpoint
                .tls_config(tls)
                .map_err(|error| format!("`{}`: {error}", self.server))?;
        }
        Ok(endpoint)
    }

    /// A lazily connecting channel without credentials (the web console adds
    /// each signed-in browser's own), verified with `--ca` for `https://`.
    pub fn plain_channel(&self) -> Result<Channel, String> {
        Ok(self.endpoint()?.connect_lazy())
    }

    /// A connected channel that sends the key on every call.
    pub async fn channel(&self) -> Result<AuthChannel, Failure> {
        let channel = self
            .endpoint()
            .map_err(Failure::usage)?
            .connect()
            .await
            .map_err(|error| Failure::unreachable(&self.server, source_of(&error)))?;
        Ok(AuthChannel::new(channel, self.credentials.clone()))
    }
}

/// The innermost cause of a transport error ("Connection refused"), not
/// tonic's "transport error" wrapper.
fn source_of(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}
