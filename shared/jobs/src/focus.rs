//! The focus cache (spec 002): per-slag artifacts that jobs produce and read
//! again — large tool outputs are kept here once and referenced by id from the
//! job record, its events and its archive instead of being copied into each.
//!
//! Layout: `<memory-root>/<slag>/focus-cache/<id>`, `id` the SHA-256 of the
//! content (the same output stored twice is one artifact). Each slag's cache is
//! bounded in bytes and entries; past either bound the least recently used
//! artifacts go first. Recency is the file's modification time, set on every
//! write and read (strictly increasing per cache), so the order survives a
//! restart: the first use of a slag after one rebuilds its index from the
//! directory.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

/// The subdirectory of a slag that holds its artifacts.
pub const FOCUS_DIR: &str = "focus-cache";

/// Bounds of one slag's cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FocusLimits {
    /// Most bytes of artifacts kept.
    pub max_bytes: u64,
    /// Most artifacts kept.
    pub max_entries: usize,
}

impl Default for FocusLimits {
    fn default() -> Self {
        Self {
            max_bytes: 64 * 1024 * 1024,
            max_entries: 10_000,
        }
    }
}

/// Why the cache could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum FocusError {
    /// The artifact is larger than the whole cache may hold.
    #[error("an artifact of {size} bytes does not fit a cache of {max_bytes} bytes")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The bound.
        max_bytes: u64,
    },
    /// The slag or id is not a safe path segment.
    #[error("`{0}` is not a valid artifact key")]
    InvalidKey(String),
    /// The disk failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FocusError + '_ {
    move |source| FocusError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// One slag's index: recency → id, and each id's recency and size.
#[derive(Debug, Default)]
struct SlagIndex {
    by_recency: BTreeMap<SystemTime, String>,
    entries: HashMap<String, (SystemTime, u64)>,
    bytes: u64,
    /// The last recency handed out: the next is strictly later.
    clock: Option<SystemTime>,
}

impl SlagIndex {
    fn tick(&mut self) -> SystemTime {
        let now = SystemTime::now();
        let next = match self.clock {
            Some(last) if now <= last => last + Duration::from_micros(1),
            _ => now,
        };
        self.clock = Some(next);
        next
    }

    fn insert(&mut self, id: &str, at: SystemTime, size: u64) {
        self.remove(id);
        self.by_recency.insert(at, id.to_owned());
        self.entries.insert(id.to_owned(), (at, size));
        self.bytes += size;
        self.clock = Some(self.clock.map_or(at, |clock| clock.max(at)));
    }

    fn remove(&mut self, id: &str) -> Option<u64> {
        let (at, size) = self.entries.remove(id)?;
        self.by_recency.remove(&at);
        self.bytes -= size;
        Some(size)
    }

    fn oldest(&self) -> Option<String> {
        self.by_recency.values().next().cloned()
    }
}

/// The focus caches of one memory root, one per slag.
#[derive(Debug)]
pub struct FocusCache {
    root: PathBuf,
    limits: FocusLimits,
    slags: Mutex<HashMap<String, SlagIndex>>,
}

fn valid_segment(text: &str) -> bool {
    adas_skill::slag::is_valid_slag(text)
}

fn valid_id(id: &str) -> bool {
    id.len() == 64
        && id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

impl FocusCache {
    /// The caches under `memory_root`, each bounded by `limits`.
    pub fn new(memory_root: impl Into<PathBuf>, limits: FocusLimits) -> Self {
        Self {
            root: memory_root.into(),
            limits,
            slags: Mutex::new(HashMap::new()),
        }
    }

    fn dir(&self, slag: &str) -> Result<PathBuf, FocusError> {
        if !valid_segment(slag) {
            return Err(FocusError::InvalidKey(slag.chars().take(80).collect()));
        }
        Ok(self.root.join(slag).join(FOCUS_DIR))
    }

    /// Runs `operation` on the slag's index, built from its directory on first use.
    fn with_index<T>(
        &self,
        slag: &str,
        dir: &Path,
        operation: impl FnOnce(&mut SlagIndex) -> Result<T, FocusError>,
    ) -> Result<T, FocusError> {
        let mut slags = self
            .slags
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !slags.contains_key(slag) {
            slags.insert(slag.to_owned(), scan(dir)?);
        }
        let index = slags.get_mut(slag).expect("inserted above");
        operation(index)
    }

    /// Stores `content` for `slag` and returns its id. Evicts the least recently
    /// used artifacts until both bounds hold.
    pub fn put(&self, slag: &str, content: &[u8]) -> Result<String, FocusError> {
        let size = content.len() as u64;
        if size > self.limits.max_bytes {
            return Err(FocusError::TooLarge {
                size,
                max_bytes: self.limits.max_bytes,
            });
        }
        let dir = self.dir(slag)?;
        let id = hex(&Sha256::digest(content));
        self.with_index(slag, &dir, |index| {
            std::fs::create_dir_all(&dir).map_err(io(&dir))?;
            let file = dir.join(&id);
            if !index.entries.contains_key(&id) {
                write_atomically(&file, content)?;
            }
            let at = index.tick();
            touch(&file, at)?;
            index.insert(&id, at, size);
            while index.bytes > self.limits.max_bytes
                || index.entries.len() > self.limits.max_entries
            {
                let Some(oldest) = index.oldest() else { break };
                index.remove(&oldest);
                let path = dir.join(&oldest);
                if let Err(error) = std::fs::remove_file(&path)
                    && error.kind() != std::io::ErrorKind::NotFound
                {
                    return Err(io(&path)(error));
                }
            }
            Ok(id.clone())
        })
    }

    /// The artifact `id` of `slag`, now the most recently used; `None` when it
    /// was never stored or has been evicted.
    pub fn get(&self, slag: &str, id: &str) -> Result<Option<Vec<u8>>, FocusError> {
        if !valid_id(id) {
            return Err(FocusError::InvalidKey(id.chars().take(80).collect()));
        }
        let dir = self.dir(slag)?;
        self.with_index(slag, &dir, |index| {
            if !index.entries.contains_key(id) {
                return Ok(None);
            }
            let file = dir.join(id);
            let content = match std::fs::read(&file) {
                Ok(content) => content,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    index.remove(id);
                    return Ok(None);
                }
                Err(error) => return Err(io(&file)(error)),
            };
            let at = index.tick();
            touch(&file, at)?;
            index.insert(id, at, content.len() as u64);
            Ok(Some(content))
        })
    }

    /// Ids of `slag`'s artifacts, least recently used first, and their total bytes.
    pub fn usage(&self, slag: &str) -> Result<(Vec<String>, u64), FocusError> {
        let dir = self.dir(slag)?;
        self.with_index(slag, &dir, |index| {
            Ok((index.by_recency.values().cloned().collect(), index.bytes))
        })
    }
}

/// The index of an existing directory: its artifacts by modification time.
fn scan(dir: &Path) -> Result<SlagIndex, FocusError> {
    let mut index = SlagIndex::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(index),
        Err(error) => return Err(io(dir)(error)),
    };
    for entry in entries.filter_map(Result::ok) {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        // Temp files of an interrupted write, and anything not ours, are skipped.
        if !valid_id(&name) {
            continue;
        }
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let mut at = metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        // Two files with one time: keep both, the later-scanned a tick after.
        while index.by_recency.contains_key(&at) {
            at += Duration::from_nanos(1);
        }
        index.insert(&name, at, metadata.len());
    }
    Ok(index)
}

fn touch(file: &Path, at: SystemTime) -> Result<(), FocusError> {
    std::fs::File::options()
        .write(true)
        .open(file)
        .and_then(|handle| handle.set_modified(at))
        .map_err(io(file))
}

fn write_atomically(file: &Path, content: &[u8]) -> Result<(), FocusError> {
    let temp = file.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::write(&temp, content).map_err(io(&temp))?;
    std::fs::rename(&temp, file).map_err(io(file))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(64), |mut out, byte| {
            let _ = write!(out, "{byte:02x}");
            out
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(label: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("adas-focus-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn limits(max_bytes: u64, max_entries: usize) -> FocusLimits {
        FocusLimits {
            max_bytes,
            max_entries,
        }
    }

    #[test]
    fn entries_are_bounded_and_the_least_recently_used_goes_first() {
        let root = scratch("entries");
        let cache = FocusCache::new(&root, limits(1 << 20, 3));
        let a = cache.put("cs", b"a").unwrap();
        let b = cache.put("cs", b"b").unwrap();
        let c = cache.put("cs", b"c").unwrap();
        // Reading `a` makes `b` the least recently used.
        assert_eq!(cache.get("cs", &a).unwrap().as_deref(), Some(&b"a"[..]));
        let d = cache.put("cs", b"d").unwrap();
        assert_eq!(cache.get("cs", &b).unwrap(), None, "b was evicted");
        assert_eq!(
            cache.usage("cs").unwrap().0,
            vec![c.clone(), a.clone(), d.clone()]
        );
        assert!(!root.join("cs").join(FOCUS_DIR).join(&b).exists());
        // The same content is one artifact, refreshed.
        assert_eq!(cache.put("cs", b"c").unwrap(), c);
        assert_eq!(cache.usage("cs").unwrap().0, vec![a, d, c]);
    }

    #[test]
    fn bytes_are_bounded() {
        let cache = FocusCache::new(scratch("bytes"), limits(10, 100));
        let first = cache.put("cs", b"12345").unwrap();
        let second = cache.put("cs", b"67890").unwrap();
        assert_eq!(cache.usage("cs").unwrap().1, 10);
        let third = cache.put("cs", b"abc").unwrap();
        let (ids, bytes) = cache.usage("cs").unwrap();
        assert_eq!((ids, bytes), (vec![second, third], 8));
        assert_eq!(cache.get("cs", &first).unwrap(), None);
        assert!(matches!(
            cache.put("cs", &[0; 11]),
            Err(FocusError::TooLarge { size: 11, .. })
        ));
    }

    #[test]
    fn slags_are_isolated() {
        let cache = FocusCache::new(scratch("isolated"), limits(1 << 20, 1));
        let mine = cache.put("cs", b"secret").unwrap();
        assert_eq!(
            cache.get("devops", &mine).unwrap(),
            None,
            "another slag never reads it"
        );
        cache.put("devops", b"other").unwrap();
        assert!(cache.get("cs", &mine).unwrap().is_some(), "nor evicts it");
        for bad in ["../etc", "", "CS"] {
            assert!(matches!(
                cache.put(bad, b"x"),
                Err(FocusError::InvalidKey(_))
            ));
        }
        assert!(matches!(
            cache.get("cs", "../../x"),
            Err(FocusError::InvalidKey(_))
        ));
    }

    #[test]
    fn contents_and_order_survive_a_restart() {
        let root = scratch("restart");
        let (a, b) = {
            let cache = FocusCache::new(&root, limits(1 << 20, 2));
            let a = cache.put("cs", b"first").unwrap();
            let b = cache.put("cs", b"second").unwrap();
            cache.get("cs", &a).unwrap();
            (a, b)
        };
        let cache = FocusCache::new(&root, limits(1 << 20, 2));
        assert_eq!(cache.usage("cs").unwrap().0, vec![b.clone(), a.clone()]);
        assert_eq!(cache.get("cs", &a).unwrap().as_deref(), Some(&b"first"[..]));
        cache.put("cs", b"third").unwrap();
        assert_eq!(
            cache.get("cs", &b).unwrap(),
            None,
            "the oldest before the restart went first"
        );
    }
}
