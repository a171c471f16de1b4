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
    /// A write relied on a version of the skill's policy that is no longer
    /// marked current ([`crate::PolicyCheck`]); nothing was written.
    #[error("the policy of skill {slag} changed since the decision the write relies on")]
    PolicyChanged {
        /// The skill.
        slag: String,
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
                // MOVED past the client's retries), or a Redis still loading its
                // dataset after a restart (LOADING, MASTERDOWN: wait and retry),
                // comes back by itself.
                error.is_io_error()
                    || error.is_connection_dropped()
                    || error.is_timeout()
                    || error.is_cluster_error()
                    || matches!(error.retry_method(), redis::RetryMethod::WaitAndRetry)
            }
            Self::VersionConflict { .. }
            | Self::PolicyChanged { .. }
            | Self::NotFound { .. }
            | Self::AlreadyExists { .. }
            | Self::InvalidKey { .. }
            | Self::UnexpectedReply(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StateError;

    fn server_error(reply: &[u8]) -> StateError {
        match redis::parse_redis_value(reply) {
            Ok(redis::Value::ServerError(error)) => StateError::Redis(error.into()),
            other => panic!("not a server error: {other:?}"),
        }
    }

    /// A Redis restarting from its files answers LOADING until its data is
    /// back: a job that meets it must be retried, not failed.
    #[test]
    fn a_redis_still_loading_is_unavailable_not_broken() {
        assert!(
            server_error(b"-LOADING Redis is loading the dataset in memory\r\n").is_unavailable()
        );
        assert!(server_error(b"-MASTERDOWN Link with MASTER is down\r\n").is_unavailable());
        assert!(!server_error(b"-ERR unknown command\r\n").is_unavailable());
        assert!(!server_error(b"-NOSCRIPT No matching script\r\n").is_unavailable());
    }

    /// A Redis killed mid-reply resets the connection.
    #[test]
    fn a_connection_reset_is_unavailable() {
        let reset = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        assert!(StateError::Redis(reset.into()).is_unavailable());
    }
}
