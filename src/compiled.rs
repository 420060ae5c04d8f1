//! `CompiledOperator`: a validated operator on the device, recorded into the caller's
//! encoders on the caller's buffers.

use std::num::NonZeroU64;
use std::sync::{Arc, Mutex};

use crate::copy_method::CopyMethod;
use crate::error::{Error, Result};
use crate::kernels::params::ContiguousRun;
use crate::kernels::{Entry, Kernel, ROLES, Role, Windowing};
use crate::lowering::{InPlace, Placement};
use crate::pipeline::Pipeline;
use crate::readback::{read_back, ready};
use crate::shared::StatusSlot;
use crate::status::{IndexReport, REPORT_BYTES, STATUS_BYTES};
use crate::windows::WindowPlan;

/// A tensor's role and the bytes its binding needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TensorBinding {
    pub tensor: &'static str,
    pub bytes: u64,
}

impl TensorBinding {
    /// An empty tensor (a size of 0) spans 0 bytes; every other tensor at least 4. Its
    /// binding is ignored: never checked, never bound.
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }
}

/// Bytes of an operator's placeholder buffer, bound where a kernel's tensor is empty (an
/// empty gather input with an output, an empty scatter output with updates: every index is
/// out of range, so the kernel touches nothing of it): one entry of the widest unit.
pub(crate) const PLACEHOLDER_BYTES: u64 = 16;

/// A dispatch step, compiled.
#[derive(Debug)]
pub(crate) struct CompiledStep {
    pub kernel: Kernel,
    /// The entry point its pipeline runs (named by `record_profiled`).
    pub entry: Entry,
    pub windowing: Windowing,
    pub pipeline: Arc<Pipeline>,
    /// The step's parameters in the operator's uniform buffer.
    pub params: UniformRange,
    pub workgroups: [u32; 3],
    pub placement: Placement,
    /// One dispatch each (several where split tensors are bound a slab at a time).
    pub passes: Vec<CompiledPass>,
    /// A copy of one contiguous run from the input to the output, which `record` makes
    /// with `copy_buffer_to_buffer` where the buffers allow it (the context measured
    /// that faster); `None`: always the kernel.
    pub contiguous: Option<ContiguousRun>,
}

/// One dispatch of a step: the first window bound of each split tensor, and the `windows`
/// uniform of a partial windowing.
#[derive(Debug)]
pub(crate) struct CompiledPass {
    pub first: [u32; ROLES],
    pub windows: Option<UniformRange>,
}

/// Where a uniform lies in the operator's one uniform buffer (one buffer for every step and
/// pass: creating buffers is most of what a compile of a known desc costs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct UniformRange {
    pub offset: u64,
    pub size: u64,
}

/// The uniforms of an operator's steps, packed at the device's uniform offset alignment.
#[derive(Debug)]
pub(crate) struct Uniforms {
    bytes: Vec<u8>,
    alignment: u64,
}

impl Uniforms {
    pub fn new(alignment: u32) -> Uniforms {
        Uniforms {
            bytes: Vec::new(),
            alignment: u64::from(alignment.max(16)),
        }
    }

    pub fn push(&mut self, contents: &[u8]) -> UniformRange {
        let offset = (self.bytes.len() as u64).next_multiple_of(self.alignment);
        self.bytes.resize(offset as usize, 0);
        self.bytes.extend_from_slice(contents);
        UniformRange {
            offset,
            size: contents.len() as u64,
        }
    }

    /// The bytes of them all (`None` for an operator without dispatches).
    pub fn bytes(&self) -> Option<&[u8]> {
        (!self.bytes.is_empty()).then_some(self.bytes.as_slice())
    }
}

/// What an operator takes from its desc alone, shared by the operators a context compiles
/// from equal descs.
#[derive(Debug)]
pub(crate) struct OperatorPlan {
    pub steps: Vec<CompiledStep>,
    /// Every step's and pass's uniforms ([`UniformRange`]).
    pub uniforms: Option<wgpu::Buffer>,
    pub inputs: Vec<TensorBinding>,
    /// The role each input is bound as.
    pub input_roles: &'static [Role],
    pub output: TensorBinding,
    pub storage_alignment: u32,
    /// How the plan copies contiguous runs, where it has one: a plan is used again only while
    /// the context's method is the same.
    pub copy_method: Option<CopyMethod>,
    /// Bound in place of an empty tensor that a kernel still binds (see [`PLACEHOLDER_BYTES`]).
    pub placeholder: Option<wgpu::Buffer>,
    /// The indices where the caller gives none (TensorScatter's write indices, all 0).
    pub zero_indices: Option<wgpu::Buffer>,
    pub index_report: Option<IndexReport>,
    pub in_place: InPlace,
    /// How tensors past the binding limit are split into windows.
    pub windows: WindowPlan,
    /// Bytes of the in-order and row-list scatters' scratch, and of the in-order
    /// reductions' links (0: none).
    pub scratch_bytes: u64,
    pub links_bytes: u64,
}

/// A validated operator with its pipelines and parameters on the device, ready to be
/// recorded any number of times into the application's command encoders.
#[derive(Debug)]
pub struct CompiledOperator {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) plan: Arc<OperatorPlan>,
    /// The operator's own status words, where it has indices.
    pub(crate) status: Option<StatusSlot>,
    /// The scratch of in-order and row-list scatters: the context's, shared by its
    /// operators (each clears or writes what it reads, every time it runs).
    pub(crate) scratch: Option<Arc<wgpu::Buffer>>,
    /// An in-order reduction's per-update links (shared as the scratch is).
    pub(crate) links: Option<Arc<wgpu::Buffer>>,
    /// The bind groups of the last few binding sets `record` saw, least recent first.
    pub(crate) bind_groups: Mutex<Vec<(BindingKey, StepBindGroups)>>,
}

/// How many binding sets a compiled operator keeps bind groups for. Their buffers stay alive
/// while cached: a few per operator, dropped as newer ones come or with the operator.
const BIND_GROUP_CACHE: usize = 4;

/// Per step, a bind group per dispatch (none where the step binds nothing), shared with the
/// cache.
type StepBindGroups = Arc<Vec<Vec<wgpu::BindGroup>>>;

/// Whether `copy_buffer_to_buffer` can copy `run` between these bindings: the usages it needs,
/// and offsets and length that are multiples of 4 bytes.
fn copyable(
    run: &ContiguousRun,
    input: &wgpu::BufferBinding,
    output: &wgpu::BufferBinding,
) -> bool {
    input.buffer.usage().contains(wgpu::BufferUsages::COPY_SRC)
        && output.buffer.usage().contains(wgpu::BufferUsages::COPY_DST)
        && [
            input.offset + run.source,
            output.offset + run.target,
            run.bytes,
        ]
        .iter()
        .all(|n| n.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT))
}

/// What a set of bind groups depends on: each binding's buffer and offset, inputs then the
/// output (the sizes bound are the tensors' own); `None` for an empty tensor's, which is
/// ignored.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct BindingKey(Vec<Option<(wgpu::Buffer, u64)>>);

impl CompiledOperator {
    /// The byte size each input binding must have at least, in `record`'s order: 0 for an
    /// empty tensor, whose binding `record` ignores.
    pub fn input_sizes(&self) -> Vec<u64> {
        self.plan.inputs.iter().map(|t| t.bytes).collect()
    }

    /// The byte size the output binding must have at least: 0 for an empty output, whose
    /// binding `record` ignores.
    pub fn output_size(&self) -> u64 {
        self.plan.output.bytes
    }

    pub(crate) fn check_input_count(&self, actual: usize) -> Result<()> {
        if actual != self.plan.inputs.len() {
            return Err(Error::InputCount {
                expected: self.plan.inputs.len(),
                actual,
            });
        }
        Ok(())
    }

    /// Records the operator into `encoder`, reading `inputs` (in the order of the desc's
    /// fields) and writing `output`. Each binding needs `STORAGE` usage, an offset that is a
    /// multiple of the device's `min_storage_buffer_offset_alignment`, and at least the
    /// tensor's size; only the tensor's bytes are bound, so the rest of the buffer is never
    /// touched. No input may share a buffer with the output, except a scatter's `input`
    /// bound to exactly the output's range (in place: the `output = input` copy is skipped).
    /// Buffers and `encoder` must belong to this operator's device: a buffer of another device
    /// gives `Err(Error::Wgpu)` (wgpu itself cannot tell buffers of another `wgpu::Instance`
    /// apart, so keep one instance). Every failed check returns `Err` before anything is
    /// recorded into `encoder`.
    ///
    /// **Empty tensors** (a size of 0, [`input_sizes`](Self::input_sizes) or
    /// [`output_size`](Self::output_size) 0): their place in `inputs` (or `output`) still takes
    /// a binding, but it is ignored: any buffer, offset and size will do (a zero-sized buffer,
    /// say; wgpu refuses zero-sized bindings, so none is made), nothing of it is checked,
    /// bound, read or written, and it aliases nothing. An operator with an empty output
    /// records nothing (a scatter whose updates all aim into an empty dimension still records
    /// its index check, reported by [`CompiledOperator::check_status`]), and so does a scatter
    /// with no updates in place; with no updates out of place it records the copy
    /// `output = input`. Where nothing is recorded, `encoder` is untouched (with
    /// `timestamp_writes`, an empty compute pass writes them).
    ///
    /// The bind groups of the last 4 binding sets (buffers and offsets) are kept, so recording
    /// again on the same buffers creates nothing: about a microsecond of CPU. Buffers stay
    /// alive while their bind groups are kept (until 4 newer sets come, or the operator is
    /// dropped).
    ///
    /// Operators with indices report out-of-range indices: after submitting, call
    /// [`CompiledOperator::check_status`]. Each execution leaves its report for that and its
    /// running status words cleared for the next (no clear command is recorded for them).
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        inputs: &[wgpu::BufferBinding],
        output: wgpu::BufferBinding,
    ) -> Result<()> {
        self.record_with_timestamps(encoder, inputs, output, None)
    }

    /// [`CompiledOperator::record`], with the compute pass's timestamps written where
    /// `timestamp_writes` says: the operator records all its dispatches into one compute
    /// pass, and where it first records copies by command (outside a pass) the beginning
    /// timestamp goes to an empty pass before them, so the two bracket the whole operator
    /// (the device needs `TIMESTAMP_QUERY`, the query set must be of timestamps, and its
    /// indices in range).
    pub fn record_with_timestamps(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        inputs: &[wgpu::BufferBinding],
        output: wgpu::BufferBinding,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites>,
    ) -> Result<()> {
        self.record_steps(encoder, inputs, output, timestamp_writes, None)
            .map(drop)
    }

    /// For profiling the library's kernels (not a stable API): [`CompiledOperator::record`],
    /// with a timestamp written into `query_set` before the compute pass's first dispatch
    /// (index 0) and after each dispatch (1, 2, ..); returns the entry point each dispatch
    /// ran, in order (copies by command, outside the pass, are not among them). The device
    /// needs `TIMESTAMP_QUERY_INSIDE_PASSES`, and the set one timestamp more than the
    /// operator's dispatches at most ([`CompiledOperator::dispatch_count`]).
    #[doc(hidden)]
    pub fn record_profiled(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        inputs: &[wgpu::BufferBinding],
        output: wgpu::BufferBinding,
        query_set: &wgpu::QuerySet,
    ) -> Result<Vec<&'static str>> {
        let rule = if !self
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES)
        {
            "the device lacks TIMESTAMP_QUERY_INSIDE_PASSES"
        } else if !matches!(query_set.ty(), wgpu::QueryType::Timestamp) {
            "the query set is not of timestamps"
        } else if (query_set.count() as usize) <= self.dispatch_count() {
            "the query set needs one timestamp more than the operator's dispatches"
        } else {
            ""
        };
        if !rule.is_empty() {
            return Err(Error::InvalidTimestampWrites { rule });
        }
        self.record_steps(encoder, inputs, output, None, Some(query_set))
    }

    /// The dispatches the operator records at most (every step's, in place or not).
    #[doc(hidden)]
    pub fn dispatch_count(&self) -> usize {
        self.plan.steps.iter().map(|step| step.passes.len()).sum()
    }

    fn record_steps(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        inputs: &[wgpu::BufferBinding],
        output: wgpu::BufferBinding,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites>,
        profile: Option<&wgpu::QuerySet>,
    ) -> Result<Vec<&'static str>> {
        if let Some(writes) = &timestamp_writes {
            self.check_timestamp_writes(writes)?;
        }
        self.check_input_count(inputs.len())?;
        // Empty tensors' bindings are ignored.
        for (t, b) in self.plan.inputs.iter().zip(inputs) {
            if !t.is_empty() {
                self.check_binding(t, b)?;
            }
        }
        if !self.plan.output.is_empty() {
            self.check_binding(&self.plan.output, &output)?;
        }
        let mut in_place = false;
        for (i, (t, b)) in self.plan.inputs.iter().zip(inputs).enumerate() {
            if t.is_empty() || self.plan.output.is_empty() || b.buffer != output.buffer {
                continue;
            }
            let rule = match (i, self.plan.in_place) {
                (0, InPlace::SameLayout) if b.offset == output.offset => {
                    in_place = true;
                    continue;
                }
                (0, InPlace::SameLayout) => {
                    "the input may share the output's buffer only at the same offset (in place)"
                }
                (0, InPlace::LayoutsDiffer) => {
                    "in place needs the input and output layouts to be equal"
                }
                _ => "this input may not share a buffer with the output",
            };
            return Err(Error::AliasedBindings {
                tensor: t.tensor,
                other: self.plan.output.tensor,
                rule,
            });
        }
        // Nothing to record (an empty output; a scatter with no updates, in place): the
        // encoder stays untouched, or takes an empty pass for the timestamps.
        let runs = |step: &CompiledStep| step.placement.runs(in_place);
        if !self.plan.steps.iter().any(runs) {
            if timestamp_writes.is_some() {
                encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("dml-wgsl (nothing to do)"),
                    timestamp_writes,
                });
            }
            return Ok(Vec::new());
        }
        // Each role's buffer: the caller's tensors in the desc's order (their roles the
        // operator's), the output, and the operator's own status, scratch and zeros; the
        // placeholder for an empty tensor.
        let placeholder = || self.plan.placeholder.as_ref().map(|b| (b, 0, b.size()));
        let bound = |role: Role| -> Result<wgpu::BufferBinding> {
            let caller = |role: Role| {
                let i = self.plan.input_roles.iter().position(|&r| r == role)?;
                let t = self.plan.inputs.get(i)?;
                if t.is_empty() {
                    return placeholder();
                }
                Some((inputs.get(i)?.buffer, inputs[i].offset, t.bytes))
            };
            fn own(buffer: &Option<wgpu::Buffer>) -> Option<(&wgpu::Buffer, u64, u64)> {
                buffer.as_ref().map(|b| (b, 0, b.size()))
            }
            fn shared(
                buffer: &Option<Arc<wgpu::Buffer>>,
                bytes: u64,
            ) -> Option<(&wgpu::Buffer, u64, u64)> {
                buffer.as_ref().map(|b| (&**b, 0, bytes))
            }
            let (buffer, offset, bytes) = match role {
                Role::Input | Role::Updates => caller(role),
                Role::Indices => caller(role).or_else(|| own(&self.plan.zero_indices)),
                Role::Output if self.plan.output.is_empty() => placeholder(),
                Role::Output => Some((output.buffer, output.offset, self.plan.output.bytes)),
                Role::Status => self
                    .status
                    .as_ref()
                    .map(|slot| (&*slot.buffer, slot.offset, STATUS_BYTES)),
                Role::Winners | Role::Heads => shared(&self.scratch, self.plan.scratch_bytes),
                Role::Links => shared(&self.links, self.plan.links_bytes),
            }
            .ok_or_else(|| Error::Wgpu(format!("internal: no buffer for the {role:?} binding")))?;
            Ok(wgpu::BufferBinding {
                buffer,
                offset,
                size: NonZeroU64::new(bytes),
            })
        };
        // The bind groups of these bindings: from the cache, or made now.
        let key = BindingKey(
            self.plan
                .inputs
                .iter()
                .zip(inputs)
                .chain([(&self.plan.output, &output)])
                .map(|(t, b)| (!t.is_empty()).then(|| (b.buffer.clone(), b.offset)))
                .collect(),
        );
        let groups = match self.cached_bind_groups(&key) {
            Some(groups) => groups,
            None => {
                let groups = Arc::new(self.make_bind_groups(in_place, &bound)?);
                self.cache_bind_groups(key, groups.clone());
                groups
            }
        };
        // The run a step copies by command (outside the compute pass), if it does.
        let input = inputs.first();
        let by_command = |step: &CompiledStep| {
            step.contiguous
                .filter(|run| input.is_some_and(|input| copyable(run, input, &output)))
        };
        // Copies by command go outside the compute pass: the beginning timestamp goes to an
        // empty pass before them, so that the timestamps bracket the whole operator.
        let mut timestamp_writes = timestamp_writes;
        let copies = self
            .plan
            .steps
            .iter()
            .any(|step| step.placement.runs(in_place) && by_command(step).is_some());
        if copies
            && let Some(writes) = &mut timestamp_writes
            && writes.beginning_of_pass_write_index.is_some()
        {
            encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("dml-wgsl start"),
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: writes.query_set,
                    beginning_of_pass_write_index: writes.beginning_of_pass_write_index,
                    end_of_pass_write_index: None,
                }),
            });
            writes.beginning_of_pass_write_index = None;
        }
        if copies {
            for step in &self.plan.steps {
                if let (Some(run), Some(input)) = (by_command(step), input)
                    && step.placement.runs(in_place)
                {
                    encoder.copy_buffer_to_buffer(
                        input.buffer,
                        input.offset + run.source,
                        output.buffer,
                        output.offset + run.target,
                        run.bytes,
                    );
                }
            }
        }
        if timestamp_writes.as_ref().is_some_and(|writes| {
            writes.beginning_of_pass_write_index.is_none()
                && writes.end_of_pass_write_index.is_none()
        }) {
            timestamp_writes = None;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("dml-wgsl"),
            timestamp_writes,
        });
        let mut entries = Vec::new();
        if let Some(query_set) = profile {
            pass.write_timestamp(query_set, 0);
        }
        for (step, step_groups) in self.plan.steps.iter().zip(groups.iter()) {
            if by_command(step).is_some() {
                continue;
            }
            let [x, y, z] = step.workgroups;
            for bind_group in step_groups {
                pass.set_pipeline(&step.pipeline.pipeline);
                pass.set_bind_group(0, bind_group, &[]);
                pass.dispatch_workgroups(x, y, z);
                if let Some(query_set) = profile {
                    entries.push(step.entry.name());
                    pass.write_timestamp(query_set, entries.len() as u32);
                }
            }
        }
        Ok(entries)
    }

    /// Per step, one bind group per dispatch (none for the copy skipped in place). A split
    /// tensor is bound as the windows each dispatch binds.
    fn make_bind_groups<'a>(
        &self,
        in_place: bool,
        bound: &dyn Fn(Role) -> Result<wgpu::BufferBinding<'a>>,
    ) -> Result<Vec<Vec<wgpu::BindGroup>>> {
        // A buffer of another device passes every check in `record`, and wgpu finds it only
        // when the bind group is created: catch that here rather than in wgpu's default handler.
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut groups = Vec::with_capacity(self.plan.steps.len());
        for step in &self.plan.steps {
            let mut step_groups = Vec::new();
            let CompiledStep {
                kernel,
                windowing,
                pipeline,
                params,
                placement,
                passes,
                ..
            } = step;
            if placement.runs(in_place) {
                let (numbers, windows_binding) = kernel.binding_numbers(windowing);
                let uniforms = self.plan.uniforms.as_ref().ok_or_else(|| {
                    Error::Wgpu("internal: a dispatch without uniforms".to_string())
                })?;
                let uniform = |range: &UniformRange| {
                    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: uniforms,
                        offset: range.offset,
                        size: NonZeroU64::new(range.size),
                    })
                };
                for pass in passes {
                    let mut entries = vec![wgpu::BindGroupEntry {
                        binding: 0,
                        resource: uniform(params),
                    }];
                    for (binding, number) in
                        kernel.windowed_bindings(windowing).iter().zip(&numbers)
                    {
                        let whole = bound(binding.role)?;
                        let r = binding.role.index();
                        if windowing.bound[r] == 0 {
                            entries.push(wgpu::BindGroupEntry {
                                binding: *number,
                                resource: wgpu::BindingResource::Buffer(whole),
                            });
                            continue;
                        }
                        for k in 0..windowing.bound[r] {
                            let (offset, size) = self
                                .plan
                                .windows
                                .window(
                                    binding.role,
                                    binding.entry_bytes(kernel.unit()),
                                    whole.offset,
                                    pass.first[r] + k,
                                )
                                .ok_or_else(|| {
                                    Error::Wgpu(format!(
                                        "internal: {:?} is not split",
                                        binding.role
                                    ))
                                })?;
                            entries.push(wgpu::BindGroupEntry {
                                binding: number + k,
                                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                    buffer: whole.buffer,
                                    offset,
                                    size: NonZeroU64::new(size),
                                }),
                            });
                        }
                    }
                    if let Some(windows) = &pass.windows {
                        entries.push(wgpu::BindGroupEntry {
                            binding: windows_binding,
                            resource: uniform(windows),
                        });
                    }
                    step_groups.push(self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("dml-wgsl"),
                        layout: &pipeline.bind_group_layout,
                        entries: &entries,
                    }));
                }
            }
            groups.push(step_groups);
        }
        if let Some(Some(error)) = ready(scope.pop()) {
            return Err(Error::Wgpu(error.to_string()));
        }
        Ok(groups)
    }

    /// The bind groups made for `key` by a recent `record`, now the most recent.
    fn cached_bind_groups(&self, key: &BindingKey) -> Option<StepBindGroups> {
        let mut cache = self.bind_groups.lock().unwrap_or_else(|p| p.into_inner());
        let at = cache.iter().position(|(k, _)| k == key)?;
        let entry = cache.remove(at);
        let groups = entry.1.clone();
        cache.push(entry);
        Some(groups)
    }

    fn cache_bind_groups(&self, key: BindingKey, groups: StepBindGroups) {
        let mut cache = self.bind_groups.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() == BIND_GROUP_CACHE {
            cache.remove(0);
        }
        cache.push((key, groups));
    }

    /// Whether the operator reads index tensors and so reports out-of-range indices.
    pub fn has_status(&self) -> bool {
        self.status.is_some()
    }

    /// Copies the report of the last execution into a new readback buffer.
    pub(crate) fn copy_status(&self, encoder: &mut wgpu::CommandEncoder) -> Option<wgpu::Buffer> {
        let slot = self.status.as_ref()?;
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("dml-wgsl status readback"),
            size: REPORT_BYTES,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_buffer_to_buffer(&slot.buffer, slot.offset, &readback, 0, REPORT_BYTES);
        Some(readback)
    }

    pub(crate) fn decode_status(&self, bytes: &[u8]) -> Result<()> {
        match &self.plan.index_report {
            Some(report) => {
                let words = bytemuck::pod_read_unaligned(&bytes[..REPORT_BYTES as usize]);
                report.decode(words)
            }
            None => Ok(()),
        }
    }

    /// Reads the status of the most recent execution recorded with this operator (submit it
    /// first): `Err(Error::IndexOutOfRange)` names the first out-of-range index tuple in the
    /// indices' row-major order; those updates were skipped (a TensorScatter's linear write
    /// index out of range: `Err(Error::WriteIndexOutOfRange)`). Operators without indices
    /// always return `Ok`.
    pub async fn check_status(&self) -> Result<()> {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("dml-wgsl status"),
            });
        let Some(readback) = self.copy_status(&mut encoder) else {
            return Ok(());
        };
        self.queue.submit([encoder.finish()]);
        self.decode_status(&read_back(&self.device, &readback).await?)
    }

    /// [`CompiledOperator::check_status`], blocking. Native targets only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn check_status_blocking(&self) -> Result<()> {
        pollster::block_on(self.check_status())
    }

    fn check_timestamp_writes(&self, writes: &wgpu::ComputePassTimestampWrites) -> Result<()> {
        let rule = if !self
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            "the device lacks TIMESTAMP_QUERY"
        } else if !matches!(writes.query_set.ty(), wgpu::QueryType::Timestamp) {
            "the query set is not of timestamps"
        } else if writes.beginning_of_pass_write_index.is_none()
            && writes.end_of_pass_write_index.is_none()
        {
            "neither a beginning nor an end index is given"
        } else if [
            writes.beginning_of_pass_write_index,
            writes.end_of_pass_write_index,
        ]
        .into_iter()
        .flatten()
        .any(|i| i >= writes.query_set.count())
        {
            "an index is past the query set's end"
        } else if writes.beginning_of_pass_write_index.is_some()
            && writes.beginning_of_pass_write_index == writes.end_of_pass_write_index
        {
            "the beginning and end indices are equal"
        } else {
            return Ok(());
        };
        Err(Error::InvalidTimestampWrites { rule })
    }

    fn check_binding(&self, t: &TensorBinding, b: &wgpu::BufferBinding) -> Result<()> {
        let missing = wgpu::BufferUsages::STORAGE - b.buffer.usage();
        if !missing.is_empty() {
            return Err(Error::BindingUsage {
                tensor: t.tensor,
                missing,
            });
        }
        if !b.offset.is_multiple_of(self.plan.storage_alignment as u64) {
            return Err(Error::BindingOffsetAlignment {
                tensor: t.tensor,
                offset: b.offset,
                alignment: self.plan.storage_alignment,
            });
        }
        let available = match b.size {
            Some(size) => size.get().min(b.buffer.size().saturating_sub(b.offset)),
            None => b.buffer.size().saturating_sub(b.offset),
        };
        if available < t.bytes {
            return Err(Error::BindingTooSmall {
                tensor: t.tensor,
                given: available,
                required: t.bytes,
            });
        }
        Ok(())
    }
}
