//! Workgroup counts: one dispatch helper for every kernel.

use crate::error::{Error, Result};

/// How a dispatch covers its work, decided by lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grid {
    /// This many threads, one after the other: folded into 2-D and 3-D past the dispatch
    /// limit (see [`workgroup_count`]).
    Flat(u64),
    /// These workgroup counts exactly (the planes of a strided copy).
    Planes([u32; 3]),
}

impl Grid {
    /// The workgroup counts to dispatch.
    pub fn workgroups(self, workgroup_size: u32, max_per_dimension: u32) -> Result<[u32; 3]> {
        match self {
            Grid::Flat(invocations) => {
                workgroup_count(invocations, workgroup_size, max_per_dimension)
            }
            Grid::Planes(groups) => Ok(groups),
        }
    }
}

/// The workgroup grid for `invocations` threads in groups of `workgroup_size`, folded into
/// 2-D and then 3-D once a dimension would pass `max_per_dimension` (65535 on most adapters).
/// The shaders flatten the grid back (`invocation_index` in `shaders/common.wgsl`) and
/// guard every thread past `invocations`.
pub(crate) fn workgroup_count(
    invocations: u64,
    workgroup_size: u32,
    max_per_dimension: u32,
) -> Result<[u32; 3]> {
    // Keeps the flat index and its guard inside u32 (see invocation_index).
    let max_invocations = u32::MAX as u64 - workgroup_size as u64;
    if invocations > max_invocations {
        return Err(Error::LimitExceeded {
            what: "one dispatch",
            needed: invocations,
            limit_name: "invocations a dispatch (u32 index space)",
            limit: max_invocations,
        });
    }
    let groups = invocations.div_ceil(workgroup_size as u64).max(1);
    let max = max_per_dimension.max(1) as u64;
    // As few rows and layers as needed, each as short as possible: idle groups past the
    // end stay under one row (and one layer).
    let z = groups.div_ceil(max * max);
    let y = groups.div_ceil(z).div_ceil(max);
    let x = groups.div_ceil(z * y);
    if z > max {
        return Err(Error::LimitExceeded {
            what: "one dispatch",
            needed: groups,
            limit_name: "max_compute_workgroups_per_dimension cubed",
            limit: max * max * max,
        });
    }
    Ok([x as u32, y as u32, z as u32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts_stay_one_dimensional() {
        assert_eq!(workgroup_count(1, 256, 65535).unwrap(), [1, 1, 1]);
        assert_eq!(workgroup_count(257, 256, 65535).unwrap(), [2, 1, 1]);
    }

    #[test]
    fn large_counts_fold_and_cover_every_invocation() {
        for &(n, max) in &[
            (65536u64 * 256, 65535u32),
            (1 << 31, 65535),
            (1000, 3),
            (10_000, 4),
        ] {
            let [x, y, z] = workgroup_count(n, 256, max).unwrap();
            assert!(x <= max && y <= max && z <= max, "{n} {max}: {x} {y} {z}");
            let total = x as u64 * y as u64 * z as u64;
            assert!(total * 256 >= n);
            // Idle groups stay fewer than one row of the fold.
            assert!(
                total - n.div_ceil(256) < (x as u64 * y as u64).max(1),
                "{n} {max}: {x} {y} {z}"
            );
        }
    }

    #[test]
    fn folding_wastes_less_than_one_row() {
        assert_eq!(
            workgroup_count(65536 * 256, 256, 65535).unwrap(),
            [32768, 2, 1]
        );
    }

    #[test]
    fn counts_past_the_index_space_are_refused() {
        assert!(matches!(
            workgroup_count(u32::MAX as u64, 256, 65535),
            Err(Error::LimitExceeded { .. })
        ));
    }
}
