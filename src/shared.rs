//! Buffers a context's operators share, so that compiling a desc again creates none (creating
//! buffers is most of what such a compile costs): the uniforms of equal parameters (read
//! only), the scratch of the in-order and row-list scatters (each operator clears or writes
//! what it reads, every time it runs, and a queue runs one submission's commands after
//! another's, so no operator sees another's bytes), and a status slot an operator (its own
//! until it is dropped).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use crate::pipeline::FastHash;
use crate::status::STATUS_BYTES;

/// Which scratch buffer.
#[derive(Clone, Copy)]
pub(crate) enum Scratch {
    /// In-order and row-list scatters' per-output scratch (`Role::Winners`, `Role::Heads`).
    PerOutput,
    /// In-order reductions' per-update links (`Role::Links`).
    Links,
}

/// Free status slots (a buffer and an offset in it), and the queue that zeroes a slot given
/// back: the next operator to take it reads no status before its first run.
#[derive(Debug)]
struct SlotPool {
    free: Mutex<Vec<(Arc<wgpu::Buffer>, u64)>>,
    queue: wgpu::Queue,
}

/// Uniform buffers by their bytes, while an operator holds them; and the map's length at
/// which to forget those none holds.
type KnownUniforms = (HashMap<Box<[u8]>, Weak<wgpu::Buffer>, FastHash>, usize);

/// Status slots a buffer holds.
const STATUS_SLOTS: u64 = 64;

#[derive(Debug)]
pub(crate) struct Shared {
    /// The largest scratch buffers made so far, shared by the operators that fit in them.
    scratch: Mutex<[Option<Arc<wgpu::Buffer>>; 2]>,
    uniforms: Mutex<KnownUniforms>,
    status_slots: Arc<SlotPool>,
    /// Bytes from one status slot to the next (the storage offset alignment).
    status_stride: u64,
    max_buffer_size: u64,
}

/// An operator's status words: `STATUS_BYTES` at `offset` of a buffer shared with other
/// operators' slots, zeroed and given back when the operator is dropped.
#[derive(Debug)]
pub(crate) struct StatusSlot {
    pub buffer: Arc<wgpu::Buffer>,
    pub offset: u64,
    pool: Arc<SlotPool>,
}

impl Drop for StatusSlot {
    fn drop(&mut self) {
        // Zeroed before any later submission's commands run (as a new buffer's bytes are).
        let zeros = [0; STATUS_BYTES as usize];
        self.pool
            .queue
            .write_buffer(&self.buffer, self.offset, &zeros);
        let mut free = self.pool.free.lock().unwrap_or_else(|p| p.into_inner());
        free.push((self.buffer.clone(), self.offset));
    }
}

/// A buffer the kernels bind as storage and `record` may clear or copy.
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
    pub fn new(limits: &wgpu::Limits, queue: &wgpu::Queue) -> Shared {
        let alignment = u64::from(limits.min_storage_buffer_offset_alignment.max(4));
        Shared {
            scratch: Mutex::default(),
            uniforms: Mutex::default(),
            status_slots: Arc::new(SlotPool {
                free: Mutex::default(),
                queue: queue.clone(),
            }),
            status_stride: STATUS_BYTES.next_multiple_of(alignment),
            max_buffer_size: limits.max_buffer_size,
        }
    }

    /// A scratch buffer of at least `bytes` (checked against `max_buffer_size` before): the
    /// context's, or a new one twice as large (up to the limit) that replaces it.
    pub fn scratch(&self, device: &wgpu::Device, which: Scratch, bytes: u64) -> Arc<wgpu::Buffer> {
        let mut scratch = self.scratch.lock().unwrap_or_else(|p| p.into_inner());
        let slot = &mut scratch[which as usize];
        if let Some(buffer) = slot.as_ref().filter(|b| b.size() >= bytes) {
            return buffer.clone();
        }
        let old = slot.as_ref().map_or(0, |b| b.size());
        let size = bytes
            .max(old.saturating_mul(2).min(self.max_buffer_size))
            .next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let label = match which {
            Scratch::PerOutput => "dml-wgsl scratch",
            Scratch::Links => "dml-wgsl links",
        };
        let buffer = Arc::new(storage_buffer(device, label, size));
        *slot = Some(buffer.clone());
        buffer
    }

    /// A uniform buffer holding `bytes`: one an operator made of the same bytes still holds,
    /// or a new one.
    pub fn uniforms(&self, device: &wgpu::Device, bytes: &[u8]) -> Arc<wgpu::Buffer> {
        use wgpu::util::DeviceExt;
        let mut guard = self.uniforms.lock().unwrap_or_else(|p| p.into_inner());
        let (known, prune_at) = &mut *guard;
        if let Some(buffer) = known.get(bytes).and_then(Weak::upgrade) {
            return buffer;
        }
        let buffer = Arc::new(
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("dml-wgsl params"),
                contents: bytes,
                usage: wgpu::BufferUsages::UNIFORM,
            }),
        );
        // Forget the buffers no operator holds any more, now and then.
        if known.len() >= *prune_at {
            known.retain(|_, buffer| buffer.strong_count() > 0);
            *prune_at = (known.len() * 2).max(64);
        }
        known.insert(bytes.into(), Arc::downgrade(&buffer));
        buffer
    }

    /// A status slot of the operator's own, cleared by the operator before each run.
    pub fn status_slot(&self, device: &wgpu::Device) -> StatusSlot {
        let mut free = self
            .status_slots
            .free
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let (buffer, offset) = free.pop().unwrap_or_else(|| {
            let size = self.status_stride * STATUS_SLOTS;
            let buffer = Arc::new(storage_buffer(device, "dml-wgsl status", size));
            free.extend((1..STATUS_SLOTS).map(|k| (buffer.clone(), k * self.status_stride)));
            (buffer, 0)
        });
        StatusSlot {
            buffer,
            offset,
            pool: self.status_slots.clone(),
        }
    }
}
