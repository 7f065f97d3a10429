//! The float weight file.
//!
//! ```text
//! file = "FFNET\0" version:u16 shapes:u32 channels:u32 hidden:u32 count:u32
//!        param:f32 * count  checksum:u64
//! ```
//! Little-endian. `checksum` is FNV-1a 64 over every byte before it. A reader checks the
//! magic, the version, the dimensions against this build's, the length and the checksum,
//! and says which failed.

use super::features::SHAPES;
use super::model::{Layout, Model, HIDDEN};
use std::fmt;

pub const MAGIC: &[u8; 6] = b"FFNET\0";
pub const VERSION: u16 = 1;
const HEADER: usize = 6 + 2 + 4 * 4;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    NotANetwork,
    Version(u16),
    Dimensions { file: [u32; 4], build: [u32; 4] },
    Truncated { len: usize, want: usize },
    TrailingBytes { len: usize, want: usize },
    Checksum,
    NotFinite(usize),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LoadError::NotANetwork => write!(f, "not a Fivefold network file (no FFNET header)"),
            LoadError::Version(v) => write!(
                f,
                "network file version {v}; this build reads version {VERSION}"
            ),
            LoadError::Dimensions { file, build } => write!(
                f,
                "network dimensions (shapes, channels, hidden, params) {file:?}; this build has {build:?}"
            ),
            LoadError::Truncated { len, want } => {
                write!(f, "network file truncated: {len} bytes of {want}")
            }
            LoadError::TrailingBytes { len, want } => {
                write!(f, "network file has {len} bytes, expected {want}")
            }
            LoadError::Checksum => write!(f, "network file corrupt (checksum mismatch)"),
            LoadError::NotFinite(i) => write!(f, "network parameter {i} is not finite"),
        }
    }
}

impl std::error::Error for LoadError {}

pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

fn dims<const D: usize>() -> [u32; 4] {
    [
        SHAPES as u32,
        D as u32,
        HIDDEN as u32,
        Layout::<D>::PARAMS as u32,
    ]
}

/// Bytes of a whole file of a `D`-channel network.
pub const fn file_len<const D: usize>() -> usize {
    HEADER + 4 * Layout::<D>::PARAMS + 8
}

/// The channels a float or quantised weight file says it has (both headers hold them at
/// the same place), without checking the rest; `None` for a file too short to say.
pub fn file_channels(bytes: &[u8]) -> Option<usize> {
    let b: [u8; 4] = bytes.get(12..16)?.try_into().ok()?;
    Some(u32::from_le_bytes(b) as usize)
}

impl<const D: usize> Model<D> {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len::<D>());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for d in dims::<D>() {
            out.extend_from_slice(&d.to_le_bytes());
        }
        for p in &self.params {
            out.extend_from_slice(&p.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Model<D>, LoadError> {
        if bytes.len() < 8 || &bytes[..6] != MAGIC {
            return Err(LoadError::NotANetwork);
        }
        let version = u16::from_le_bytes([bytes[6], bytes[7]]);
        if version != VERSION {
            return Err(LoadError::Version(version));
        }
        let want = file_len::<D>();
        if bytes.len() < HEADER {
            return Err(LoadError::Truncated {
                len: bytes.len(),
                want,
            });
        }
        let u32_at = |i: usize| {
            let b = &bytes[8 + 4 * i..12 + 4 * i];
            u32::from_le_bytes([b[0], b[1], b[2], b[3]])
        };
        let file = [u32_at(0), u32_at(1), u32_at(2), u32_at(3)];
        if file != dims::<D>() {
            return Err(LoadError::Dimensions {
                file,
                build: dims::<D>(),
            });
        }
        if bytes.len() < want {
            return Err(LoadError::Truncated {
                len: bytes.len(),
                want,
            });
        }
        if bytes.len() > want {
            return Err(LoadError::TrailingBytes {
                len: bytes.len(),
                want,
            });
        }
        let (body, sum) = bytes.split_at(want - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(stored) {
            return Err(LoadError::Checksum);
        }
        let params: Vec<f32> = body[HEADER..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(i) = params.iter().position(|p| !p.is_finite()) {
            return Err(LoadError::NotFinite(i));
        }
        Ok(Model { params })
    }

    /// Reads a weight file; errors name the file and the reason.
    pub fn load(path: &std::path::Path) -> Result<Model<D>, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Model::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn save(&self, path: &std::path::Path) -> Result<(), String> {
        std::fs::write(path, self.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Model = super::Model<32>;

    fn bytes() -> Vec<u8> {
        Model::random(7).to_bytes()
    }

    #[test]
    fn a_saved_model_loads_back_equal() {
        let m = Model::random(7);
        assert_eq!(Model::from_bytes(&m.to_bytes()), Ok(m));
        assert_eq!(bytes().len(), file_len::<32>());
        assert_eq!(file_channels(&bytes()), Some(32));
    }

    #[test]
    fn a_truncated_file_is_refused() {
        let b = bytes();
        for len in [0, 5, 10, HEADER, b.len() / 2, b.len() - 1] {
            let err = Model::from_bytes(&b[..len]).unwrap_err();
            assert!(
                matches!(err, LoadError::Truncated { .. } | LoadError::NotANetwork),
                "{len}: {err}"
            );
        }
        let mut long = b.clone();
        long.push(0);
        assert!(matches!(
            Model::from_bytes(&long),
            Err(LoadError::TrailingBytes { .. })
        ));
    }

    #[test]
    fn a_corrupt_file_is_refused() {
        let mut b = bytes();
        let mid = b.len() / 2;
        b[mid] ^= 0x10;
        assert_eq!(Model::from_bytes(&b), Err(LoadError::Checksum));
        let mut b = bytes();
        b[0] = b'X';
        assert_eq!(Model::from_bytes(&b), Err(LoadError::NotANetwork));
    }

    #[test]
    fn another_version_or_shape_is_refused() {
        let mut b = bytes();
        b[6] = 2;
        assert_eq!(Model::from_bytes(&b), Err(LoadError::Version(2)));
        let mut b = bytes();
        b[12] ^= 1; // channels
        assert!(matches!(
            Model::from_bytes(&b),
            Err(LoadError::Dimensions { .. })
        ));
        let msg = Model::from_bytes(&b).unwrap_err().to_string();
        assert!(msg.contains("dimensions"), "{msg}");
        let wide = super::Model::<64>::random(7).to_bytes();
        assert_eq!(file_channels(&wide), Some(64));
        assert!(matches!(
            Model::from_bytes(&wide),
            Err(LoadError::Dimensions { .. })
        ));
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let err = Model::load(std::path::Path::new("/nonexistent/net.bin")).unwrap_err();
        assert!(err.contains("/nonexistent/net.bin"), "{err}");
    }
}
