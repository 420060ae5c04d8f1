//! Buffers a context's operators share, so that compiling a desc again creates fewer
//! (creating buffers is most of what such a compile costs): the uniforms of equal parameters
//! (read only), and the scratch of the in-order and row-list scatters (each operator clears
//! or writes what it reads, every time it runs, and a queue runs one command buffer after
//! another, so no operator sees another's bytes). Each is kept while an operator holds it.
//! The status words stay an operator's own: an operator dropped before the commands it
//! recorded are submitted still writes them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use crate::pipeline::FastHash;

/// The largest scratch buffer a context makes twice as large as asked (past it, as large).
const GROWTH_CAP: u64 = 256 << 20;

/// Which scratch buffer.
#[derive(Clone, Copy)]
pub(crate) enum Scratch {
    /// In-order and row-list scatters' per-output scratch (`Role::Winners`, `Role::Heads`).
    PerOutput,
    /// In-order reductions' per-update links (`Role::Links`).
    Links,
}

/// Uniform buffers by their bytes, while an operator holds them; and the map's length at
/// which to forget those none holds.
type KnownUniforms = (HashMap<Box<[u8]>, Weak<wgpu::Buffer>, FastHash>, usize);

#[derive(Debug)]
pub(crate) struct Shared {
    /// The largest scratch buffers made so far, while an operator holds them, shared by the
    /// operators that fit in them.
    scratch: Mutex<[Weak<wgpu::Buffer>; 2]>,
    uniforms: Mutex<KnownUniforms>,
    max_buffer_size: u64,
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
    pub fn new(limits: &wgpu::Limits) -> Shared {
        Shared {
            scratch: Mutex::default(),
            uniforms: Mutex::default(),
            max_buffer_size: limits.max_buffer_size,
        }
    }

    /// A scratch buffer of at least `bytes` (checked against `max_buffer_size` before): the
    /// one an operator holds, or a new one that replaces it, twice as large while that stays
    /// under `GROWTH_CAP` (a growing tensor then reallocates a few times, not every step).
    pub fn scratch(&self, device: &wgpu::Device, which: Scratch, bytes: u64) -> Arc<wgpu::Buffer> {
        let mut scratch = self.scratch.lock().unwrap_or_else(|p| p.into_inner());
        let slot = &mut scratch[which as usize];
        let held = slot.upgrade();
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
        *slot = Arc::downgrade(&buffer);
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
}
