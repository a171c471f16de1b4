//! The store's one error type.

/// Errors of state operations.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// A compare-and-set write found a newer version: someone else wrote first.
    #[error("version conflict on {what}: expected version {expected}, stored version is {actual}")]
    VersionConflict {
        /// The record.
        what: String,
        /// The version the writer held.
        expected: u64,
        /// The version actually stored.
        actual: u64,
    },
    /// The record does not exist.
    #[error("{what} not found")]
    NotFound {
        /// The record.
        what: String,
    },
    /// The record already exists.
    #[error("{what} already exists")]
    AlreadyExists {
        /// The record.
        what: String,
    },
    /// A slag, id or key cannot be used in a key.
    #[error("invalid key part `{part}`: {reason}")]
    InvalidKey {
        /// The offending part.
        part: String,
        /// Why.
        reason: &'static str,
    },
    /// Redis failed or is unreachable.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// Redis answered something the store did not expect (a bug or a foreign key).
    #[error("unexpected redis reply: {0}")]
    UnexpectedReply(String),
}

impl StateError {
    /// Whether the backend could not be reached (worth a retry, maps to UNAVAILABLE).
    pub fn is_unavailable(&self) -> bool {
        match self {
            Self::Redis(error) => {
                // A cluster mid-failover or mid-reshard (CLUSTERDOWN, TRYAGAIN,
                // MOVED past the client's retries) comes back by itself.
                error.is_io_error()
                    || error.is_connection_dropped()
                    || error.is_timeout()
                    || error.is_cluster_error()
            }
            Self::VersionConflict { .. }
            | Self::NotFound { .. }
            | Self::AlreadyExists { .. }
            | Self::InvalidKey { .. }
            | Self::UnexpectedReply(_) => false,
        }
    }
}
