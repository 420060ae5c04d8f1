//! Tensors past the binding window: how `compile` binds a tensor larger than the device's
//! `max_storage_buffer_binding_size`.
//!
//! Such a tensor is bound as *windows* of its one buffer: bindings of `2^window_shift` bytes
//! at consecutive offsets (a power of two, so that the kernels' accessors find an element's
//! window with a shift and a mask; the last window is shorter). The caller still binds each
//! tensor as one `BufferBinding`; `record` makes the windows.
//!
//! When every window of every tensor a kernel touches fits the device's
//! `max_storage_buffers_per_shader_stage`, one dispatch binds them all and runs as before
//! (the grouped entry points included). Otherwise each split tensor's windows are taken a
//! *slab* at a time: the kernel is dispatched once per combination of slabs, and every
//! element is handled by the one dispatch that owns all the windows it touches (an index
//! tuple's first component decides for the indices, whose slab binds the windows after it
//! too, so a tuple straddling a window edge is read whole). Every kernel's effect is the same
//! whichever dispatch handles an element, and elements no dispatch owns do not exist, so the
//! result equals one dispatch's, bit for bit, and out-of-range reports name the same position.

use crate::error::{Error, Result};
use crate::kernels::params::{INDEX_WORD_PAIRS, IndexParams, PerDimension, WindowParams};
use crate::kernels::{Kernel, ROLES, Role, Windowing};

/// The windows of an operator's tensors, decided once per `compile`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WindowPlan {
    /// log2 of the window size in bytes.
    pub window_shift: u32,
    /// Per role: the tensor's bytes, and its windows (0: bound whole, it fits one binding).
    pub bytes: [u64; ROLES],
    pub windows: [u32; ROLES],
}

/// One dispatch of a kernel whose windows are bound a slab at a time: the first window bound
/// of each role, and the `WindowParams` the kernel reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass {
    pub first: [u32; ROLES],
    pub params: Option<WindowParams>,
}

impl WindowPlan {
    /// The plan for tensors of `bytes` (per role) on a device with `limits`. Tensors that fit
    /// one binding stay whole; the window is the largest power of two within the binding
    /// limit, and at least the offset alignment and 16 bytes (the widest unit).
    pub fn new(bytes: [u64; ROLES], limits: &wgpu::Limits) -> Result<WindowPlan> {
        let binding_limit = limits.max_storage_buffer_binding_size;
        let split = |b: u64| b > binding_limit;
        let mut window_shift = 0;
        let mut windows = [0; ROLES];
        if bytes.iter().any(|&b| split(b)) {
            let smallest = (limits.min_storage_buffer_offset_alignment as u64).max(16);
            if binding_limit < smallest {
                return Err(Error::LimitExceeded {
                    what: "splitting a tensor into windows (a window holds the widest unit and \
                           starts at an aligned offset)",
                    needed: smallest,
                    limit_name: "max_storage_buffer_binding_size",
                    limit: binding_limit,
                });
            }
            window_shift = 63 - binding_limit.leading_zeros();
            let window_bytes = 1u64 << window_shift;
            for (role, &b) in bytes.iter().enumerate() {
                if split(b) {
                    // The kernels index elements with u32, so a split tensor has fewer than
                    // 2^32 windows (checked before: its elements have u32 offsets).
                    windows[role] = u32::try_from(b.div_ceil(window_bytes)).map_err(|_| {
                        Error::LimitExceeded {
                            what: "the windows of a split tensor",
                            needed: b.div_ceil(window_bytes),
                            limit_name: "max_storage_buffer_binding_size (windows a tensor, \
                                         below 2^32)",
                            limit: binding_limit,
                        }
                    })?;
                }
            }
        }
        Ok(WindowPlan {
            window_shift,
            bytes,
            windows,
        })
    }

    pub fn window_bytes(&self) -> u64 {
        1 << self.window_shift
    }

    /// How `kernel` binds its tensors on a device allowing `storage_limit` storage buffers a
    /// stage, and its dispatches: one, or one per combination of slabs. `index_params` are
    /// the dispatch's, for the span of an index tuple.
    pub fn kernel_passes(
        &self,
        kernel: Kernel,
        index_params: Option<&IndexParams>,
        storage_limit: u32,
    ) -> Result<(Windowing, Vec<Pass>)> {
        let roles: Vec<Role> = kernel.bindings().iter().map(|b| b.role).collect();
        // This kernel's windows of each split tensor: those holding a whole array entry
        // (bytes past the last whole entry, such as a padded total size, are never read).
        let mut windows = [0; ROLES];
        for binding in kernel.bindings() {
            let r = binding.role.index();
            if self.windows[r] > 0 {
                windows[r] = self.entry_windows(binding.role, binding.entry_bytes(kernel.unit()));
            }
        }
        let whole_pass = Pass {
            first: [0; ROLES],
            params: None,
        };
        let mut windowing = Windowing {
            window_shift: self.window_shift,
            bound: [0; ROLES],
            partial: false,
            half_stores: false,
        };
        for &role in &roles {
            windowing.bound[role.index()] = windows[role.index()];
        }
        if !roles.iter().any(|r| windows[r.index()] > 0) {
            return Ok((Windowing::default(), vec![whole_pass]));
        }
        let slots = |bound: &[u32; ROLES]| -> u64 {
            roles.iter().map(|r| bound[r.index()].max(1) as u64).sum()
        };
        if slots(&windowing.bound) <= storage_limit as u64 {
            return Ok((windowing, vec![whole_pass]));
        }
        // Slabs: a role binds `owned` windows (the indices also the windows a tuple starting
        // in the last one may reach), the largest slab shrinking until the bindings fit.
        let tuple_windows = index_params
            .map(|p| {
                let word_pairs = (p.index_flags & INDEX_WORD_PAIRS) != 0;
                let index_bytes = if word_pairs { 8 } else { 4 };
                let span = (p.tuple_size.max(1) as u64 - 1) * p.tuple_stride as u64 + 1;
                (span * index_bytes).div_ceil(self.window_bytes()) as u32
            })
            .unwrap_or(0);
        let mut owned = windowing.bound;
        let bound_for = |owned: &[u32; ROLES]| -> [u32; ROLES] {
            let mut bound = *owned;
            for &role in &roles {
                let r = role.index();
                if role == Role::Indices && owned[r] < windows[r] {
                    bound[r] = (owned[r] + tuple_windows).min(windows[r]);
                }
            }
            bound
        };
        while slots(&bound_for(&owned)) > storage_limit as u64 {
            let largest = roles
                .iter()
                .map(|r| r.index())
                .filter(|&r| owned[r] > 1)
                .max_by_key(|&r| owned[r]);
            match largest {
                Some(r) => owned[r] -= 1,
                None => {
                    return Err(Error::LimitExceeded {
                        what: kernel.purpose(),
                        needed: slots(&bound_for(&owned)),
                        limit_name: "max_storage_buffers_per_shader_stage (a window of each \
                                     split tensor a dispatch)",
                        limit: storage_limit as u64,
                    });
                }
            }
        }
        windowing.bound = bound_for(&owned);
        windowing.partial = true;
        // Every combination of slabs, one dispatch each.
        let mut passes = Vec::new();
        let mut slab = [0u32; ROLES];
        loop {
            let mut first = [0; ROLES];
            let (mut begin, mut end) = ([0; ROLES], [0; ROLES]);
            for &role in &roles {
                let r = role.index();
                if windows[r] == 0 {
                    continue;
                }
                begin[r] = slab[r] * owned[r];
                end[r] = (begin[r] + owned[r]).min(windows[r]);
                // The bound windows stay inside the tensor: never the same window twice.
                first[r] = begin[r].min(windows[r] - windowing.bound[r]);
            }
            passes.push(Pass {
                first,
                params: Some(WindowParams {
                    first: PerDimension::new(first),
                    own_begin: PerDimension::new(begin),
                    own_end: PerDimension::new(end),
                }),
            });
            // The next combination, the first role's slab counting fastest.
            let mut carried = true;
            for &role in &roles {
                let r = role.index();
                if windows[r] == 0 || !carried {
                    continue;
                }
                slab[r] += 1;
                if slab[r] * owned[r] >= windows[r] {
                    slab[r] = 0;
                } else {
                    carried = false;
                }
            }
            if carried {
                return Ok((windowing, passes));
            }
        }
    }

    /// The windows of `role`'s tensor that hold whole array entries of `entry_bytes`.
    fn entry_windows(&self, role: Role, entry_bytes: u32) -> u32 {
        let r = role.index();
        let entries = self.bytes[r] / entry_bytes as u64 * entry_bytes as u64;
        (entries.div_ceil(self.window_bytes()) as u32).max(1)
    }

    /// The binding (offset, size) of window `window` of `role`'s tensor bound at `offset`,
    /// for arrays of `entry_bytes` (`None`: the tensor is bound whole). The last window ends
    /// at the last whole entry, so every binding holds at least one.
    pub fn window(
        &self,
        role: Role,
        entry_bytes: u32,
        offset: u64,
        window: u32,
    ) -> Option<(u64, u64)> {
        let r = role.index();
        if self.windows[r] == 0 {
            return None;
        }
        let end = self.bytes[r] / entry_bytes as u64 * entry_bytes as u64;
        let start = window as u64 * self.window_bytes();
        let size = self.window_bytes().min(end.checked_sub(start)?);
        Some((offset + start, size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::Unit;

    fn limits(binding: u64, storage: u32) -> wgpu::Limits {
        wgpu::Limits {
            max_storage_buffer_binding_size: binding,
            max_storage_buffers_per_shader_stage: storage,
            min_storage_buffer_offset_alignment: 256,
            ..wgpu::Limits::default()
        }
    }

    fn bytes(input: u64, output: u64) -> [u64; ROLES] {
        let mut bytes = [16; ROLES];
        bytes[Role::Input.index()] = input;
        bytes[Role::Output.index()] = output;
        bytes
    }

    #[test]
    fn tensors_that_fit_stay_whole() {
        let plan = WindowPlan::new(bytes(4096, 4096), &limits(4096, 8)).unwrap();
        assert_eq!(plan.windows, [0; ROLES]);
        let (windowing, passes) = plan
            .kernel_passes(Kernel::StridedCopy(Unit::Word), None, 8)
            .unwrap();
        assert_eq!(windowing, Windowing::default());
        assert_eq!(passes.len(), 1);
    }

    #[test]
    fn windows_are_the_largest_power_of_two_within_the_limit() {
        let plan = WindowPlan::new(bytes(10_008, 16), &limits(3000, 8)).unwrap();
        assert_eq!(plan.window_bytes(), 2048);
        assert_eq!(plan.windows[Role::Input.index()], 5);
        assert_eq!(plan.windows[Role::Output.index()], 0);
        assert_eq!(
            plan.window(Role::Input, 4, 512, 4),
            Some((512 + 8192, 10_008 - 8192))
        );
        // 16-byte entries: the last window ends at the last whole one.
        assert_eq!(
            plan.window(Role::Input, 16, 512, 4),
            Some((512 + 8192, 10_000 - 8192))
        );
    }

    #[test]
    fn all_windows_bind_at_once_where_the_stage_allows() {
        let plan = WindowPlan::new(bytes(8192, 8192), &limits(1024, 16)).unwrap();
        let (windowing, passes) = plan
            .kernel_passes(Kernel::StridedCopy(Unit::Word), None, 16)
            .unwrap();
        assert!(!windowing.partial);
        assert_eq!(windowing.bound[Role::Input.index()], 8);
        assert_eq!(passes.len(), 1);
    }

    #[test]
    fn slabs_cover_every_window_pair_exactly_once() {
        let plan = WindowPlan::new(bytes(7 * 1024, 5 * 1024), &limits(1024, 4)).unwrap();
        let (windowing, passes) = plan
            .kernel_passes(Kernel::StridedCopy(Unit::Word), None, 4)
            .unwrap();
        assert!(windowing.partial);
        let (i, o) = (Role::Input.index(), Role::Output.index());
        assert!(windowing.bound[i] + windowing.bound[o] <= 4);
        let mut seen = std::collections::HashSet::new();
        for pass in &passes {
            let p = pass.params.unwrap();
            let range = |d: PerDimension, r: usize| bytemuck::cast::<_, [u32; 8]>(d)[r];
            for a in range(p.own_begin, i)..range(p.own_end, i) {
                for b in range(p.own_begin, o)..range(p.own_end, o) {
                    assert!(seen.insert((a, b)), "window pair {a} {b} owned twice");
                }
            }
            // Owned windows are bound.
            assert!(pass.first[i] <= range(p.own_begin, i));
            assert!(range(p.own_end, i) <= pass.first[i] + windowing.bound[i]);
            assert!(pass.first[i] + windowing.bound[i] <= 7);
        }
        assert_eq!(seen.len(), 35);
    }

    #[test]
    fn too_few_storage_buffers_is_an_error_naming_the_limit() {
        let plan = WindowPlan::new(bytes(8192, 8192), &limits(1024, 1)).unwrap();
        let error = plan
            .kernel_passes(Kernel::StridedCopy(Unit::Word), None, 1)
            .unwrap_err();
        assert!(
            matches!(error, Error::LimitExceeded { limit: 1, .. }),
            "{error:?}"
        );
    }
}
