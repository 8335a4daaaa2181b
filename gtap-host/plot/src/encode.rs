//! PNG output through the pure-Rust `png` encoder: 8-bit RGB, no metadata, so that the same
//! chart gives the same bytes on every machine.

use std::path::Path;

use crate::{Image, PlotError};

impl Image {
    /// The image as PNG file bytes.
    pub fn encode_png(&self) -> Result<Vec<u8>, PlotError> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, self.width(), self.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Best);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(self.as_bytes())?;
        writer.finish()?;
        Ok(out)
    }

    /// Writes the image as a PNG file at `path`.
    pub fn write_png(&self, path: impl AsRef<Path>) -> Result<(), PlotError> {
        let path = path.as_ref();
        let bytes = self.encode_png()?;
        std::fs::write(path, bytes).map_err(|source| PlotError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Image, PlotError, Rect, Rgb};

    fn decode(bytes: &[u8]) -> (png::OutputInfo, Vec<u8>) {
        let decoder = png::Decoder::new(bytes);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info, buf)
    }

    #[test]
    fn png_round_trip_keeps_size_and_pixels() {
        let mut img = Image::new(7, 5, Rgb(255, 255, 255));
        img.fill_rect(Rect::new(2, 1, 3, 2), Rgb(10, 20, 30));
        img.put(6, 4, Rgb(200, 100, 0));
        let (info, data) = decode(&img.encode_png().unwrap());
        assert_eq!((info.width, info.height), (7, 5));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        assert_eq!(data, img.as_bytes());
        assert_eq!(&data[3 * (7 + 2)..3 * (7 + 3)], &[10, 20, 30]);
    }

    #[test]
    fn write_png_reports_the_path() {
        let img = Image::new(1, 1, Rgb(0, 0, 0));
        let path = std::env::temp_dir()
            .join("gtap-plot-no-such-dir")
            .join("x")
            .join("a.png");
        match img.write_png(&path) {
            Err(PlotError::Io { path: p, .. }) => assert_eq!(p, path),
            other => panic!("expected an Io error, got {other:?}"),
        }
        let ok = std::env::temp_dir().join(format!("gtap-plot-test-{}.png", std::process::id()));
        img.write_png(&ok).unwrap();
        let (info, _) = decode(&std::fs::read(&ok).unwrap());
        assert_eq!((info.width, info.height), (1, 1));
        std::fs::remove_file(ok).unwrap();
    }
}
