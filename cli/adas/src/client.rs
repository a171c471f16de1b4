//! The suite a client command talks to: its address and the API key presented.

use adas_runtime::auth::{AuthChannel, Credentials};
use tonic::transport::Channel;

/// Where client commands connect, with which credentials.
#[derive(Debug, Clone)]
pub struct Client {
    /// The suite's address (`http://host:port`).
    pub server: String,
    credentials: Credentials,
}

impl Client {
    /// A client of `server` presenting `api_key` (none in dev mode).
    pub fn new(server: &str, api_key: Option<&str>) -> Result<Self, String> {
        Ok(Self {
            server: server.to_owned(),
            credentials: Credentials::new(api_key)?,
        })
    }

    /// A connected channel that sends the key on every call.
    pub async fn channel(&self) -> Result<AuthChannel, String> {
        let channel = Channel::from_shared(self.server.clone())
            .map_err(|error| format!("`{}`: {error}", self.server))?
            .connect()
            .await
            .map_err(|error| format!("cannot reach {}: {error}", self.server))?;
        Ok(AuthChannel::new(channel, self.credentials.clone()))
    }
}
