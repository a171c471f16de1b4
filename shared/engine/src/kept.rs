//! A small memo of values built from two shared parts (a skill version and
//! its resolved tools), for work a job repeats on the same parts.

use std::sync::Arc;

/// Values built from two shared parts, kept per pair of the very parts
/// (compared by address: both are held, so an address is never another's),
/// at most [`KeptBy::MAX`], the oldest dropped first.
pub(crate) struct KeptBy<A, B, V>(std::sync::Mutex<Vec<Kept<A, B, V>>>);

/// Two parts and the value built from them.
type Kept<A, B, V> = (Arc<A>, Arc<B>, Arc<V>);

impl<A, B, V> Default for KeptBy<A, B, V> {
    fn default() -> Self {
        Self(std::sync::Mutex::new(Vec::new()))
    }
}

impl<A, B, V> KeptBy<A, B, V> {
    const MAX: usize = 64;

    /// The value kept for `(a, b)`, or `build`'s, kept.
    pub(crate) fn get_or_build(&self, a: &Arc<A>, b: &Arc<B>, build: impl FnOnce() -> V) -> Arc<V> {
        let kept =
            |(held_a, held_b, _): &&Kept<A, B, V>| Arc::ptr_eq(held_a, a) && Arc::ptr_eq(held_b, b);
        if let Some(value) = self.0.lock().ok().and_then(|kept_all| {
            kept_all
                .iter()
                .find(kept)
                .map(|(_, _, value)| value.clone())
        }) {
            return value;
        }
        let value = Arc::new(build());
        if let Ok(mut kept_all) = self.0.lock() {
            if kept_all.len() >= Self::MAX {
                kept_all.remove(0);
            }
            kept_all.push((a.clone(), b.clone(), value.clone()));
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_by_builds_once_per_pair_of_the_very_parts() {
        let kept: KeptBy<String, u32, usize> = KeptBy::default();
        let (skill, tools) = (Arc::new("v1".to_owned()), Arc::new(7));
        let mut builds = 0;
        let mut build = |value| {
            builds += 1;
            move || value
        };
        let first = kept.get_or_build(&skill, &tools, build(1));
        let again = kept.get_or_build(&skill, &tools, build(2));
        assert!(Arc::ptr_eq(&first, &again));
        // Equal content is not the same part: a skill read again, a tool
        // set resolved again may differ in what the value is built from.
        let reread = Arc::new("v1".to_owned());
        assert_eq!(*kept.get_or_build(&reread, &tools, build(3)), 3);
        assert_eq!(*kept.get_or_build(&skill, &Arc::new(7), build(4)), 4);
        assert_eq!(builds, 4);
    }

    #[test]
    fn kept_by_holds_a_bounded_number() {
        let kept: KeptBy<usize, usize, usize> = KeptBy::default();
        let tools = Arc::new(0);
        let skills: Vec<Arc<usize>> = (0..=KeptBy::<usize, usize, usize>::MAX)
            .map(Arc::new)
            .collect();
        for skill in &skills {
            kept.get_or_build(skill, &tools, || **skill);
        }
        assert_eq!(
            kept.0.lock().unwrap().len(),
            KeptBy::<usize, usize, usize>::MAX
        );
        // The oldest went first.
        assert_eq!(*kept.get_or_build(&skills[0], &tools, || 99), 99);
        assert_eq!(*kept.get_or_build(&skills[2], &tools, || 99), 2);
    }
}
