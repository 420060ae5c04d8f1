//! What a context's operators share, so that compiling a desc again creates little or
//! nothing (creating buffers is most of what such a compile costs):
//! * the plans of up to `REMEMBERED_PLANS` descs compiled last (steps, pipelines, uniforms,
//!   placeholders: all that depends on the desc alone), so a desc compiled again is only
//!   looked up;
//! * the scratch of the in-order and row-list scatters and the in-order reductions' links
//!   (each operator clears or writes what it reads, every time it runs, and a queue runs one
//!   command buffer after another, so no operator sees another's bytes), each kept up to
//!   `KEPT_SCRATCH` once no operator holds it;
//! * the buffers the status words lie in. Each operator has its own slot, never given to
//!   another: an operator dropped before the commands it recorded are submitted still writes
//!   its slot.
//!
//! `release` forgets the plans and lets the kept scratch go.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use crate::compiled::OperatorPlan;
use crate::ops::OperatorDesc;
use crate::pipeline::FastHash;
use crate::status::STATUS_BYTES;

/// The largest scratch buffer a context makes twice as large as asked (past it, as large).
const GROWTH_CAP: u64 = 256 << 20;

/// The largest scratch buffer a context keeps for later operators once none holds it.
const KEPT_SCRATCH: u64 = 64 << 20;

/// How many descs' plans a context remembers at most. A decoder whose sequence grows compiles
/// a new desc at every step: when full, the half least recently compiled is forgotten. Each
/// plan holds its steps on the host and, on the device, its uniforms (a few hundred bytes),
/// and where it has them a 16-byte placeholder and TensorScatter's zero write indices (8
/// bytes an entry of its batch).
pub(crate) const REMEMBERED_PLANS: usize = 512;

/// Status slots in one buffer: a new buffer is made every this many operators with indices.
const STATUS_SLOTS: u64 = 64;

/// Which scratch buffer.
#[derive(Clone, Copy)]
pub(crate) enum Scratch {
    /// In-order and row-list scatters' per-output scratch (`Role::Winners`, `Role::Heads`).
    PerOutput,
    /// In-order reductions' per-update links (`Role::Links`).
    Links,
}

/// The plans of the descs compiled last, each with when it was last asked for; and the
/// clock of those asks.
type KnownPlans = (
    HashMap<OperatorDesc, (Arc<OperatorPlan>, u64), FastHash>,
    u64,
);

/// The latest scratch buffer of one kind.
#[derive(Debug, Default)]
struct LatestScratch {
    /// While an operator holds it.
    held: Weak<wgpu::Buffer>,
    /// Kept by the context (not larger than `KEPT_SCRATCH`) until `release`.
    kept: Option<Arc<wgpu::Buffer>>,
}

/// An operator's status words: `STATUS_BYTES` at `offset` of a buffer other operators have
/// other slots of.
#[derive(Debug)]
pub(crate) struct StatusSlot {
    pub buffer: Arc<wgpu::Buffer>,
    pub offset: u64,
}

#[derive(Debug)]
pub(crate) struct Shared {
    plans: Mutex<KnownPlans>,
    /// The largest scratch buffers made so far, shared by the operators that fit in them;
    /// kept while an operator holds them, or while not larger than `KEPT_SCRATCH`.
    scratch: Mutex<[LatestScratch; 2]>,
    /// The status buffer slots are given from, and its next slot.
    status: Mutex<Option<(Arc<wgpu::Buffer>, u64)>>,
    /// Bytes between status slots: storage bindings start at multiples of the device's
    /// `min_storage_buffer_offset_alignment`.
    status_stride: u64,
    max_buffer_size: u64,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// A buffer the kernels bind as storage and `record` may copy.
pub(crate) fn storage_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

// In a browser wgpu's handles are not Send: one thread uses the context there.
#[cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]
impl Shared {
    pub fn new(limits: &wgpu::Limits) -> Shared {
        Shared {
            plans: Mutex::default(),
            scratch: Mutex::default(),
            status: Mutex::default(),
            status_stride: STATUS_BYTES
                .next_multiple_of(u64::from(limits.min_storage_buffer_offset_alignment.max(4))),
            max_buffer_size: limits.max_buffer_size,
        }
    }

    /// The plan remembered for `desc` (the caller checks it still fits the context, with
    /// no lock held).
    pub fn plan(&self, desc: &OperatorDesc) -> Option<Arc<OperatorPlan>> {
        let mut guard = lock(&self.plans);
        let (known, clock) = &mut *guard;
        let (plan, asked) = known.get_mut(desc)?;
        *clock += 1;
        *asked = *clock;
        Some(plan.clone())
    }

    /// Remembers `plan` for `desc`; when `REMEMBERED_PLANS` are known, the half least
    /// recently asked for is forgotten first (dropped once the lock is let go: other
    /// threads' lookups do not wait for their buffers to be destroyed).
    pub fn remember(&self, desc: &OperatorDesc, plan: Arc<OperatorPlan>) {
        let mut forgotten = Vec::new();
        let mut guard = lock(&self.plans);
        let (known, clock) = &mut *guard;
        if known.len() >= REMEMBERED_PLANS && !known.contains_key(desc) {
            let mut asked: Vec<u64> = known.values().map(|(_, asked)| *asked).collect();
            let half = asked.len() / 2;
            let (_, &mut median, _) = asked.select_nth_unstable(half);
            known.retain(|_, (plan, asked)| {
                let keep = *asked > median;
                if !keep {
                    forgotten.push(plan.clone());
                }
                keep
            });
        }
        *clock += 1;
        known.insert(desc.clone(), (plan, *clock));
        drop(guard);
        drop(forgotten);
    }

    /// How many descs' plans are remembered.
    pub fn plan_count(&self) -> usize {
        lock(&self.plans).0.len()
    }

    /// Forgets every plan and lets go of the scratch no operator holds.
    pub fn release(&self) {
        let plans = std::mem::take(&mut lock(&self.plans).0);
        let kept: Vec<_> = lock(&self.scratch)
            .iter_mut()
            .map(|latest| latest.kept.take())
            .collect();
        drop((plans, kept));
    }

    /// A status slot no operator had before.
    pub fn status_slot(&self, device: &wgpu::Device) -> StatusSlot {
        let mut current = lock(&self.status);
        let (buffer, next) = match current.take() {
            Some((buffer, next)) if next < STATUS_SLOTS => (buffer, next),
            // New buffers hold zeros: a slot reads clean before its operator's first run.
            _ => (
                Arc::new(storage_buffer(
                    device,
                    "dml-wgsl status",
                    self.status_stride * STATUS_SLOTS,
                )),
                0,
            ),
        };
        *current = Some((buffer.clone(), next + 1));
        StatusSlot {
            buffer,
            offset: next * self.status_stride,
        }
    }

    /// A scratch buffer of at least `bytes` (checked against `max_buffer_size` before): the
    /// one an operator holds or the context keeps, or a new one that replaces it, twice as
    /// large while that stays under `GROWTH_CAP` (a growing tensor then reallocates a few
    /// times, not every step).
    pub fn scratch(&self, device: &wgpu::Device, which: Scratch, bytes: u64) -> Arc<wgpu::Buffer> {
        let mut scratch = lock(&self.scratch);
        let latest = &mut scratch[which as usize];
        let held = latest.held.upgrade();
        if let Some(buffer) = held.as_ref().filter(|b| b.size() >= bytes) {
            return buffer.clone();
        }
        let doubled = held.map_or(0, |b| b.size()).saturating_mul(2);
        let size = if doubled <= GROWTH_CAP.min(self.max_buffer_size) {
            bytes.max(doubled)
        } else {
            bytes
        }
        .next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let label = match which {
            Scratch::PerOutput => "dml-wgsl scratch",
            Scratch::Links => "dml-wgsl links",
        };
        let buffer = Arc::new(storage_buffer(device, label, size));
        latest.held = Arc::downgrade(&buffer);
        latest.kept = (size <= KEPT_SCRATCH).then(|| buffer.clone());
        buffer
    }
}
