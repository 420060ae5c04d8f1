//! Planning an operator: validating its desc against the device's limits, lowering it to
//! steps, binding windows and workgroup counts (nothing created on the device), then its
//! plan: pipelines and uniforms.

use std::sync::Arc;

use wgpu::util::DeviceExt;

use super::{Context, CopyMethod, ROW_THREADS};
use crate::compiled::{
    CompiledPass, CompiledStep, OperatorPlan, PLACEHOLDER_BYTES, TensorBinding, Uniforms,
};
use crate::error::{Error, Result};
use crate::kernels::params::{ContiguousRun, Parameters};
use crate::kernels::{Kernel, ROLES, Role, Windowing};
use crate::lowering::{BindingFacts, DeviceFacts, Lowered, Step};
use crate::ops::OperatorDesc;
use crate::pipeline::{Pipeline, PipelineKey};
use crate::readback::ready;
use crate::shared::storage_buffer;
use crate::status::STATUS_BYTES;
use crate::windows::{Pass, WindowPlan};

/// A dispatch step's windowing and its dispatches.
type Planned = (Windowing, Vec<Pass>);

/// A desc lowered and checked, before anything is created on the device.
pub(super) struct Prepared {
    tensors: Vec<TensorBinding>,
    output: TensorBinding,
    input_roles: &'static [Role],
    copy_method: Option<CopyMethod>,
    lowered: Lowered,
    plan: WindowPlan,
    /// Each step's windowing and dispatches.
    passes: Vec<Planned>,
    workgroups: Vec<[u32; 3]>,
    /// Whether a kernel binds an empty tensor (bound to a placeholder instead).
    binds_empty: bool,
}

impl Prepared {
    /// The pipeline of every dispatch step.
    pub(super) fn pipeline_keys(&self) -> Vec<PipelineKey> {
        self.lowered
            .steps
            .iter()
            .zip(&self.passes)
            .map(|(step, (windowing, _))| {
                (
                    step.kernel,
                    *windowing,
                    step.entry,
                    step.params.pipeline_constants(),
                )
            })
            .collect()
    }
}

impl Context {
    /// Creates what `prepared` needs on the device: its pipelines (those missing built at
    /// once: a first compile costs its slowest pipeline, not their sum), its uniforms and
    /// placeholders. A buffer the device could not make is an error (on native devices,
    /// whose error scopes answer at once), so that no broken plan is remembered.
    pub(super) fn make_plan(&self, prepared: Prepared) -> Result<OperatorPlan> {
        let out_of_memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let plan = self.make_plan_in_scope(prepared);
        if let Some(Some(error)) = ready(out_of_memory.pop()) {
            return Err(Error::Wgpu(error.to_string()));
        }
        Ok(plan)
    }

    fn make_plan_in_scope(&self, prepared: Prepared) -> OperatorPlan {
        let pipelines = self
            .pipelines
            .build_all(&self.device, &prepared.pipeline_keys());
        let Prepared {
            tensors,
            output,
            input_roles,
            copy_method,
            lowered,
            plan,
            passes,
            workgroups,
            binds_empty,
        } = prepared;
        // Contiguous runs by copy command, where this device runs those faster.
        let by_command = copy_method == Some(CopyMethod::CopyBufferToBuffer);
        let mut uniforms = Uniforms::new(self.limits.min_uniform_buffer_offset_alignment);
        let steps = lowered
            .steps
            .into_iter()
            .zip(workgroups)
            .zip(passes)
            // In the order of `pipeline_keys`: one for each step.
            .zip(pipelines)
            .map(|(((step, workgroups), planned), pipeline)| {
                let run = contiguous_run(&step).filter(|_| by_command);
                self.compile_step(step, workgroups, planned, run, pipeline, &mut uniforms)
            })
            .collect();
        let own_buffer = |label, size| storage_buffer(&self.device, label, size);
        OperatorPlan {
            steps,
            uniforms: uniforms.bytes().map(|bytes| {
                self.device
                    .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("dml-wgsl params"),
                        contents: bytes,
                        usage: wgpu::BufferUsages::UNIFORM,
                    })
            }),
            inputs: tensors,
            input_roles,
            output,
            storage_alignment: self.limits.min_storage_buffer_offset_alignment,
            copy_method,
            placeholder: binds_empty.then(|| own_buffer("dml-wgsl placeholder", PLACEHOLDER_BYTES)),
            // New buffers hold zeros.
            zero_indices: (lowered.zero_indices_bytes > 0)
                .then(|| own_buffer("dml-wgsl zero indices", lowered.zero_indices_bytes)),
            index_report: lowered.index_report,
            in_place: lowered.in_place,
            windows: plan,
            scratch_bytes: lowered.scratch_bytes,
            links_bytes: lowered.links_bytes,
        }
    }

    /// Everything of `compile` that creates nothing on the device: validation, lowering,
    /// the windows, every limit checked.
    pub(super) fn prepare(&self, desc: &OperatorDesc) -> Result<Prepared> {
        desc.validate()?;

        let limits = &self.limits;
        // Sizes before lowering: lowering may then take every offset to fit the device.
        let mut tensors = Vec::new();
        for (tensor, t) in desc.inputs().into_iter().chain([("output", desc.output())]) {
            // The kernels address elements with u32 offsets from the binding's start.
            let span = t.span_u128();
            if span > 1 << 32 {
                return Err(Error::LayoutTooWide {
                    tensor,
                    elements: span.min(u64::MAX as u128) as u64,
                    limit: 1 << 32,
                });
            }
            let bytes = t.size_in_bytes();
            if bytes > limits.max_buffer_size {
                return Err(Error::TensorTooLarge {
                    tensor,
                    bytes,
                    limit_name: "max_buffer_size",
                    limit: limits.max_buffer_size,
                });
            }
            tensors.push(TensorBinding { tensor, bytes });
        }
        let output = tensors.pop().expect("the output was pushed last");
        // Each role's bytes: the caller's tensors in the desc's order, the output, the
        // status; lowering adds its scratch.
        let mut bytes = [0; ROLES];
        let input_roles = desc.input_roles();
        for (role, t) in input_roles.iter().zip(&tensors) {
            bytes[role.index()] = t.bytes;
        }
        bytes[Role::Output.index()] = output.bytes;
        bytes[Role::Status.index()] = STATUS_BYTES;
        // The copy method first (measured once a context, where an operator has a run to
        // copy): where this device copies faster by kernel, a scatter may fuse its copy into
        // its own kernel.
        let copy_method = desc.copies_contiguous_run().then(|| self.copy_method());
        let facts = DeviceFacts {
            unit_alignment: limits.min_storage_buffer_offset_alignment.min(16),
            workgroup_size: self.workgroup_size,
            row_threads: ROW_THREADS
                .min(limits.max_compute_invocations_per_workgroup)
                .min(limits.max_compute_workgroup_size_x)
                .max(1),
            max_workgroup_storage_bytes: limits.max_compute_workgroup_storage_size,
            max_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
            copies_in_kernels: copy_method == Some(CopyMethod::Kernel),
            int64_atomics: self.int64_atomics,
            hardware_float64: self.hardware_float64,
            float32_atomics: self.float32_atomics,
            bounded_loops: self.bounded_loops,
            per_element: false,
            bindings: Some(BindingFacts {
                bytes,
                max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
                min_storage_buffer_offset_alignment: limits.min_storage_buffer_offset_alignment,
                max_storage_buffers_per_shader_stage: limits.max_storage_buffers_per_shader_stage,
            }),
        };
        let mut lowered = desc.lower(&facts)?;
        for (what, needed) in [
            (
                "the in-order scratch (4 to 8 bytes per output unit)",
                lowered.scratch_bytes,
            ),
            (
                "the in-order reduction's sort (16 bytes per update)",
                lowered.links_bytes,
            ),
        ] {
            if needed > limits.max_buffer_size {
                return Err(Error::LimitExceeded {
                    what,
                    needed,
                    limit_name: "max_buffer_size",
                    limit: limits.max_buffer_size,
                });
            }
        }
        if lowered.zero_indices_bytes > 0 {
            bytes[Role::Indices.index()] = lowered.zero_indices_bytes;
        }
        bytes[Role::Winners.index()] = lowered.scratch_bytes;
        bytes[Role::Heads.index()] = lowered.scratch_bytes;
        bytes[Role::Links.index()] = lowered.links_bytes;
        let plan = WindowPlan::new(bytes, limits)?;
        let passes = self.plan_passes(&lowered.steps, &plan)?;
        for (step, (windowing, _)) in lowered.steps.iter_mut().zip(&passes) {
            // Column blocks keep the rows a block scatters into in cache for the word
            // compare-exchanges; 16-bit stores go faster row-major (an H200's Float16 diagonal
            // scatters of whole-word rows, 4096 x 2048: in place 0.074 -> 0.067 ms with Int64
            // indices, 0.066 -> 0.063 with Int32; no other class of the sweep moved). Any
            // walk is valid: any order of the updates is.
            if step.kernel.writes_halves(windowing)
                && let Parameters::Index(params) = &mut step.params
            {
                params.tile = 0;
            }
        }
        for (Step { kernel, params, .. }, (windowing, _)) in lowered.steps.iter().zip(&passes) {
            self.check_kernel_limits(*kernel, windowing, params.bytes().len())?;
            // A fold reads a target's updates wherever they lie: every window bound.
            if windowing.partial && kernel.needs_every_window() {
                let needed = plan.windows.iter().map(|&w| w.max(1) as u64).sum();
                return Err(Error::LimitExceeded {
                    what: "an in-order scatter reduction of tensors past the binding window \
                           (every window bound at once)",
                    needed,
                    limit_name: "max_storage_buffers_per_shader_stage",
                    limit: limits.max_storage_buffers_per_shader_stage as u64,
                });
            }
        }
        // Every step is checked before anything is created on the device.
        let workgroups = lowered
            .steps
            .iter()
            .map(|step| {
                step.grid.workgroups(
                    self.workgroup_size,
                    limits.max_compute_workgroups_per_dimension,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        // An empty tensor that a kernel still binds (every index out of range) is bound to
        // this instead: wgpu refuses zero-sized bindings.
        let binds_empty = lowered.steps.iter().any(|step| {
            step.kernel.bindings().iter().any(|b| match b.role {
                Role::Input | Role::Indices | Role::Updates | Role::Output => {
                    bytes[b.role.index()] == 0
                }
                _ => false,
            })
        });
        Ok(Prepared {
            tensors,
            output,
            input_roles,
            copy_method,
            lowered,
            plan,
            passes,
            workgroups,
            binds_empty,
        })
    }

    /// Each step's windowing and dispatches.
    fn plan_passes(&self, steps: &[Step], plan: &WindowPlan) -> Result<Vec<Planned>> {
        steps
            .iter()
            .map(|step| {
                let index_params = match &step.params {
                    Parameters::Index(p) => Some(p),
                    Parameters::StridedCopy(_) => None,
                };
                let storage_limit = self.limits.max_storage_buffers_per_shader_stage;
                let (mut windowing, passes) =
                    plan.kernel_passes(step.kernel, index_params, storage_limit)?;
                // 16-bit stores where the device has them and their two more bindings fit.
                windowing.half_stores = self.half_stores;
                windowing.half_stores = step.kernel.writes_halves(&windowing)
                    && step.kernel.windowed_bindings(&windowing).len() as u64
                        <= storage_limit as u64;
                Ok((windowing, passes))
            })
            .collect()
    }

    /// A kernel's bindings must fit the device's limits, or creating its pipeline would
    /// raise a wgpu error (downlevel devices may have as few as 4 storage buffers a stage).
    fn check_kernel_limits(
        &self,
        kernel: Kernel,
        windowing: &Windowing,
        params_bytes: usize,
    ) -> Result<()> {
        let storage: u64 = kernel
            .windowed_bindings(windowing)
            .iter()
            .map(|b| windowing.slots(b.role) as u64)
            .sum();
        let uniforms = 1 + windowing.partial as u64;
        let limits = &self.limits;
        for (needed, limit_name, limit) in [
            (1, "max_bind_groups", limits.max_bind_groups as u64),
            (
                storage,
                "max_storage_buffers_per_shader_stage",
                limits.max_storage_buffers_per_shader_stage as u64,
            ),
            (
                uniforms,
                "max_uniform_buffers_per_shader_stage",
                limits.max_uniform_buffers_per_shader_stage as u64,
            ),
            (
                storage + uniforms,
                "max_bindings_per_bind_group",
                limits.max_bindings_per_bind_group as u64,
            ),
            (
                params_bytes as u64,
                "max_uniform_buffer_binding_size",
                limits.max_uniform_buffer_binding_size,
            ),
        ] {
            if needed > limit {
                return Err(Error::LimitExceeded {
                    what: kernel.purpose(),
                    needed,
                    limit_name,
                    limit,
                });
            }
        }
        Ok(())
    }

    fn compile_step(
        &self,
        step: Step,
        workgroups: [u32; 3],
        (windowing, passes): Planned,
        contiguous: Option<ContiguousRun>,
        pipeline: Arc<Pipeline>,
        uniforms: &mut Uniforms,
    ) -> CompiledStep {
        let passes = passes
            .into_iter()
            .map(|pass| CompiledPass {
                first: pass.first,
                windows: pass.params.map(|p| uniforms.push(bytemuck::bytes_of(&p))),
            })
            .collect();
        CompiledStep {
            kernel: step.kernel,
            entry: step.entry,
            windowing,
            pipeline,
            params: uniforms.push(step.params.bytes()),
            workgroups,
            placement: step.placement,
            passes,
            contiguous,
        }
    }
}

/// The run of bytes a copy step moves, where it is one contiguous run between whole bindings
/// (every window of a split tensor bound at once, so the copy covers the run).
fn contiguous_run(step: &Step) -> Option<ContiguousRun> {
    match step {
        Step {
            kernel: Kernel::StridedCopy(unit),
            params: Parameters::StridedCopy(params),
            ..
        } => params.contiguous_run(unit.bytes()),
        _ => None,
    }
}
