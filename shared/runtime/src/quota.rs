//! Request-rate quotas per principal and per tenant: token buckets keyed by
//! name, checked by the auth layer once the caller is known. Over the limit the
//! call is RESOURCE_EXHAUSTED with `google.rpc.RetryInfo` saying when a token
//! is back. The suite's own processes (`service` keys of every tenant, `*`) and
//! dev mode are not limited: a worker's calls are the work a user already paid
//! for. A `service` key of one tenant is that tenant's integration and is held
//! to its quotas like any caller.
//!
//! Hand-written on purpose: a keyed bucket is a few lines, where `governor`
//! would bring thirteen crates (a third `hashbrown` among them) to a two-core build.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// A rate: `per_second` tokens a second, at most `burst` saved up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Sustained requests per second.
    pub per_second: f64,
    /// Requests allowed at once after a quiet spell.
    pub burst: f64,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Keys with more buckets than this are pruned of full (idle) buckets, so
/// the table never grows with the number of keys ever seen.
const PRUNE_ABOVE: usize = 10_000;

/// Token buckets by key.
#[derive(Debug)]
pub struct Buckets {
    rate: Rate,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Buckets {
    /// Buckets refilling at `rate`.
    pub fn new(rate: Rate) -> Self {
        Self {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token for `key`, or says how long until one is there.
    pub fn take(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() > PRUNE_ABOVE {
            let rate = self.rate;
            buckets.retain(|_, bucket| refill(rate, *bucket, now) < rate.burst);
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: self.rate.burst,
            at: now,
        });
        let tokens = refill(self.rate, *bucket, now);
        if tokens >= 1.0 {
            *bucket = Bucket {
                tokens: tokens - 1.0,
                at: now,
            };
            Ok(())
        } else {
            *bucket = Bucket { tokens, at: now };
            Err(Duration::from_secs_f64(
                (1.0 - tokens) / self.rate.per_second.max(f64::MIN_POSITIVE),
            ))
        }
    }
}

fn refill(rate: Rate, bucket: Bucket, now: Instant) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
    (bucket.tokens + elapsed * rate.per_second).min(rate.burst)
}

/// The quotas of one process: per principal and per tenant.
#[derive(Debug)]
pub struct Quotas {
    principals: Buckets,
    tenants: Buckets,
}

impl Quotas {
    /// Quotas at these rates.
    pub fn new(per_principal: Rate, per_tenant: Rate) -> Self {
        Self {
            principals: Buckets::new(per_principal),
            tenants: Buckets::new(per_tenant),
        }
    }

    /// Admits one request of `principal`, or refuses it with RetryInfo.
    pub fn admit(&self, principal: &crate::Principal) -> Result<(), Status> {
        if principal.acts_for_every_tenant() {
            return Ok(());
        }
        let now = Instant::now();
        let (scope, refused) = match self.principals.take(&principal.name, now) {
            Err(wait) => ("principal", wait),
            Ok(()) => match self.tenants.take(&principal.tenant, now) {
                Err(wait) => ("tenant", wait),
                Ok(()) => return Ok(()),
            },
        };
        Err(exhausted(
            &format!("request rate of this {scope}"),
            scope,
            refused.max(Duration::from_millis(1)),
        ))
    }
}

/// RESOURCE_EXHAUSTED for `what` (the quota of `scope`), with `RetryInfo`.
pub fn exhausted(what: &str, scope: &str, retry_after: Duration) -> Status {
    let mut details = ErrorDetails::with_error_info(
        "QUOTA_EXCEEDED",
        crate::ERROR_DOMAIN,
        [("scope".to_owned(), scope.to_owned())],
    );
    details.set_retry_info(Some(retry_after));
    Status::with_error_details(
        Code::ResourceExhausted,
        format!("{what} exceeded the quota; retry later"),
        details,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_sustained_rate() {
        let buckets = Buckets::new(Rate {
            per_second: 10.0,
            burst: 3.0,
        });
        let start = Instant::now();
        for _ in 0..3 {
            buckets.take("a", start).unwrap();
        }
        let wait = buckets.take("a", start).unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_millis(100));
        // Another key has its own bucket; time refills.
        buckets.take("b", start).unwrap();
        buckets
            .take("a", start + Duration::from_millis(100))
            .unwrap();
    }
}

/// A per-tenant share of something the process has a fixed amount of (request
/// slots, tool calls in flight): each tenant may hold at most `share` at once,
/// so one tenant's slow or flooding work leaves the rest to the others.
/// Tenants are the auth file's, so the map stays small.
#[derive(Debug)]
pub struct TenantShares {
    share: usize,
    tenants: Mutex<HashMap<String, std::sync::Arc<tokio::sync::Semaphore>>>,
}

impl TenantShares {
    /// Shares of `share` (at least 1) per tenant.
    pub fn new(share: usize) -> Self {
        Self {
            share: share.max(1),
            tenants: Mutex::new(HashMap::new()),
        }
    }

    /// A place in `tenant`'s share, once one is free (first come, first served).
    pub async fn acquire(&self, tenant: &str) -> tokio::sync::OwnedSemaphorePermit {
        let semaphore = self
            .tenants
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(tenant.to_owned())
            .or_insert_with(|| std::sync::Arc::new(tokio::sync::Semaphore::new(self.share)))
            .clone();
        // Never closed: a permit always comes.
        semaphore
            .acquire_owned()
            .await
            .expect("tenant shares are never closed")
    }
}
