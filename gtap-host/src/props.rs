//! What the host needs to know about a GPU to size a launch: SMs, threads, shared memory,
//! registers. Read once, when the [`Gpu`](crate::Gpu) is opened, from device attributes.

use std::fmt;

use cudarc::driver::CudaContext;
use cudarc::driver::sys::CUdevice_attribute as Attr;

use crate::error::GpuError;
use crate::ptx::sm_name;

/// A GPU's properties, read from `cuDeviceGetAttribute` when the [`Gpu`](crate::Gpu) opened.
///
/// Its `Display` is a one-line summary, e.g.
/// `GPU 0: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB, 50.0 MiB L2, 1980 MHz)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceProps {
    /// The device ordinal (`CUDA_VISIBLE_DEVICES` numbering).
    pub ordinal: usize,
    /// The marketing name, e.g. `NVIDIA H100 80GB HBM3`.
    pub name: String,
    /// (major, minor), e.g. (9, 0) for Hopper.
    pub compute_capability: (u32, u32),
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// The most threads one block may have.
    pub max_threads_per_block: u32,
    /// The most threads resident on one SM.
    pub max_threads_per_sm: u32,
    /// The most blocks resident on one SM.
    pub max_blocks_per_sm: u32,
    /// The most blocks a grid may have in x, the dimension gtap launches along.
    pub max_grid_dim_x: u32,
    /// Threads per warp (32 on every NVIDIA GPU so far).
    pub warp_size: u32,
    /// Shared memory (static and dynamic) one block may use without opting in, in bytes.
    pub shared_mem_per_block: usize,
    /// Shared memory one block may use after opting in
    /// (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`), in bytes.
    pub shared_mem_per_block_optin: usize,
    /// Shared memory per SM, in bytes.
    pub shared_mem_per_sm: usize,
    /// 32-bit registers available to one block.
    pub registers_per_block: u32,
    /// Device memory, in bytes.
    pub total_mem: usize,
    /// Peak SM clock, in kHz (0 where the driver no longer reports it).
    pub clock_rate_khz: u32,
    /// L2 cache, in bytes.
    pub l2_cache_bytes: usize,
}

impl DeviceProps {
    /// Reads the properties of the device of `ctx`.
    pub(crate) fn query(ctx: &CudaContext) -> Result<DeviceProps, GpuError> {
        let attr = |a: Attr| -> Result<u32, GpuError> {
            let v = ctx.attribute(a).map_err(|source| GpuError::Driver {
                call: "cuDeviceGetAttribute",
                source,
            })?;
            Ok(u32::try_from(v).unwrap_or(0))
        };
        let bytes = |a: Attr| attr(a).map(|v| v as usize);
        Ok(DeviceProps {
            ordinal: ctx.ordinal(),
            name: ctx.name().map_err(|source| GpuError::Driver {
                call: "cuDeviceGetName",
                source,
            })?,
            compute_capability: (
                attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            sm_count: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            max_threads_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            max_threads_per_sm: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
            max_blocks_per_sm: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)?,
            max_grid_dim_x: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
            warp_size: attr(Attr::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
            shared_mem_per_block: bytes(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
            shared_mem_per_block_optin: bytes(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?,
            shared_mem_per_sm: bytes(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            )?,
            registers_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
            total_mem: ctx.total_mem().map_err(|source| GpuError::Driver {
                call: "cuDeviceTotalMem",
                source,
            })?,
            // Deprecated in CUDA 13; a driver that refuses it should not stop the GPU opening.
            clock_rate_khz: attr(Attr::CU_DEVICE_ATTRIBUTE_CLOCK_RATE).unwrap_or(0),
            l2_cache_bytes: bytes(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
        })
    }

    /// The architecture name, e.g. `sm_90`: what `GTAP_CUDA_ARCH` takes.
    pub fn arch(&self) -> String {
        sm_name(self.compute_capability)
    }

    /// How many threads the whole GPU keeps resident at once (`sm_count * max_threads_per_sm`):
    /// the most a persistent kernel can run without blocks waiting for others to finish.
    pub fn max_resident_threads(&self) -> u32 {
        self.sm_count.saturating_mul(self.max_threads_per_sm)
    }
}

impl fmt::Display for DeviceProps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: f64 = (1u64 << 20) as f64;
        const GIB: f64 = (1u64 << 30) as f64;
        write!(
            f,
            "GPU {}: {} ({}, {} SMs, {:.1} GiB, {:.1} MiB L2",
            self.ordinal,
            self.name,
            self.arch(),
            self.sm_count,
            self.total_mem as f64 / GIB,
            self.l2_cache_bytes as f64 / MIB,
        )?;
        if self.clock_rate_khz > 0 {
            write!(f, ", {} MHz", self.clock_rate_khz / 1000)?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An H100 as its driver describes it.
    pub(crate) fn h100() -> DeviceProps {
        DeviceProps {
            ordinal: 0,
            name: "NVIDIA H100 80GB HBM3".into(),
            compute_capability: (9, 0),
            sm_count: 132,
            max_threads_per_block: 1024,
            max_threads_per_sm: 2048,
            max_blocks_per_sm: 32,
            max_grid_dim_x: i32::MAX as u32,
            warp_size: 32,
            shared_mem_per_block: 48 * 1024,
            shared_mem_per_block_optin: 227 * 1024,
            shared_mem_per_sm: 228 * 1024,
            registers_per_block: 65536,
            total_mem: 85_017_755_648,
            clock_rate_khz: 1_980_000,
            l2_cache_bytes: 50 * 1024 * 1024,
        }
    }

    #[test]
    fn one_line_summary() {
        assert_eq!(
            h100().to_string(),
            "GPU 0: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB, 50.0 MiB L2, 1980 MHz)"
        );
        let no_clock = DeviceProps {
            clock_rate_khz: 0,
            ..h100()
        };
        assert!(no_clock.to_string().ends_with("MiB L2)"), "{no_clock}");
    }

    #[test]
    fn arch_and_resident_threads() {
        assert_eq!(h100().arch(), "sm_90");
        assert_eq!(h100().max_resident_threads(), 132 * 2048);
    }
}
