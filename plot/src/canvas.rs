//! What every chart shares: the embedded font, the PNG file, text sizes that follow the image
//! size, the frame (axes, ticks, grid) and the series colors.
//!
//! plotters is built with `ab_glyph`, which draws text only with fonts the program registers;
//! registering DejaVu Sans here is what lets charts render on machines with no fonts.

use std::error::Error as StdError;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::OnceLock;

use plotters::chart::{ChartBuilder, ChartContext, SeriesLabelPosition};
use plotters::coord::Shift;
use plotters::coord::cartesian::Cartesian2d;
use plotters::prelude::{BitMapBackend, DrawingArea, IntoDrawingArea};
use plotters::style::{BLACK, Color, FontStyle, RGBColor, TextStyle, WHITE};

use crate::axis::Axis;
use crate::cli::Common;
use crate::error::{Error, Result};

/// The drawing area of a PNG being drawn.
pub type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// A chart with [`Axis`] coordinates on a PNG being drawn.
pub type Chart<'a, 'b> = ChartContext<'a, BitMapBackend<'b>, Cartesian2d<Axis, Axis>>;

/// What drawing code returns: plotters' errors, boxed (their types differ by backend).
pub type Drawn = std::result::Result<(), Box<dyn StdError>>;

/// The font family name charts use, registered as DejaVu Sans.
const FONT: &str = "sans-serif";

/// Lines, markers and legend entries, one color per series: distinct, and readable on white.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 97, 0),    // orange
    RGBColor(0, 150, 100),   // green
    RGBColor(200, 20, 60),   // crimson
    RGBColor(120, 80, 170),  // purple
    RGBColor(140, 90, 40),   // brown
    RGBColor(210, 100, 170), // pink
    RGBColor(90, 90, 90),    // dark gray
    RGBColor(150, 150, 0),   // olive
    RGBColor(0, 170, 200),   // cyan
];

/// The color of series `i`.
pub fn series_color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Registers the embedded font, once per process.
fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()
    });
    ok.then_some(())
        .ok_or_else(|| "the embedded font does not load".to_string())
}

/// Sizes that grow with the image, so that a large PNG does not get tiny text.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Pixels per point: 1 for a 900x600 image.
    scale: f64,
}

impl Layout {
    /// The layout of `common.size`.
    pub fn new(common: &Common) -> Layout {
        let (w, h) = (f64::from(common.size.width), f64::from(common.size.height));
        Layout {
            scale: (w / 900.0).min(h / 600.0).clamp(0.5, 4.0),
        }
    }

    /// `points` in pixels.
    pub fn px(self, points: f64) -> u32 {
        (points * self.scale).round() as u32
    }

    /// Text of `points` size.
    pub fn text(self, points: f64) -> TextStyle<'static> {
        (FONT, points * self.scale).into()
    }

    /// A chart builder on `area` with the margins and label areas every chart has.
    pub fn builder<'a, 'b>(self, area: &'a Area<'b>) -> ChartBuilder<'a, 'b, BitMapBackend<'b>> {
        let mut builder = ChartBuilder::on(area);
        builder
            .margin(self.px(12.0))
            .x_label_area_size(self.px(48.0))
            .y_label_area_size(self.px(72.0));
        builder
    }

    /// Draws the axes with ticks, tick labels, the axis titles and (with `grid`) grid lines.
    pub fn frame(self, chart: &mut Chart, x_desc: &str, y_desc: &str, grid: bool) -> Drawn {
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(x_desc)
            .y_desc(y_desc)
            .label_style(self.text(14.0))
            .axis_desc_style(self.text(16.0))
            .x_labels(12)
            .y_labels(10)
            .bold_line_style(RGBColor(0, 0, 0).mix(0.15))
            .light_line_style(RGBColor(0, 0, 0).mix(0.05));
        if !grid {
            mesh.disable_mesh();
        }
        mesh.draw()?;
        Ok(())
    }
}

/// Draws the legend of `chart`'s labelled series at `position`, on a light box.
pub fn legend<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    layout: Layout,
    position: SeriesLabelPosition,
) -> Drawn {
    chart
        .configure_series_labels()
        .position(position)
        .margin(layout.px(10.0))
        .label_font(layout.text(14.0))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    Ok(())
}

/// Draws a PNG of `common.size` into `common.output`: a white image with `common.title` on
/// top, the rest of it handed to `draw`.
pub fn draw_png(common: &Common, draw: impl FnOnce(&Area, Layout) -> Drawn) -> Result<()> {
    let path = &common.output;
    let failed = |message: String| Error::Draw {
        path: path.clone(),
        message,
    };
    register_font().map_err(failed)?;
    let layout = Layout::new(common);
    let (width, height) = (common.size.width, common.size.height);
    let mut pixels = vec![0; width as usize * height as usize * 3];
    let drawn = (|| -> Drawn {
        let root = BitMapBackend::with_buffer(&mut pixels, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let body = if common.title.is_empty() {
            root.margin(layout.px(8.0), 0, 0, 0)
        } else {
            root.titled(&common.title, layout.text(22.0))?
        };
        draw(&body, layout)?;
        root.present()?;
        Ok(())
    })();
    drawn.map_err(|e| failed(e.to_string()))?;
    write_png(path, &pixels, width, height).map_err(|source| Error::Write {
        path: path.clone(),
        source,
    })
}

/// Writes RGB `pixels` as a PNG file.
fn write_png(
    path: &Path,
    pixels: &[u8],
    width: u32,
    height: u32,
) -> Result<(), png::EncodingError> {
    let file = BufWriter::new(File::create(path)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(pixels)?;
    writer.finish()
}
