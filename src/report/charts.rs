//! The report's charts, drawn with `plotters` into inline SVG (its SVG
//! backend escapes every text it writes, system names included).

use anyhow::{Result, anyhow};
use plotters::data::Quartiles;
use std::ops::Range;

use plotters::coord::ranged1d::{AsRangedCoord, SegmentedCoord, ValueFormatter};
use plotters::coord::types::{RangedCoordf32, RangedCoordf64, RangedCoordi32};
use plotters::prelude::*;

/// Pixel width of every chart.
const WIDTH: u32 = 720;
/// Height of one system's row.
const ROW: u32 = 30;

/// A chart with a value axis `X` and one row a system.
type Chart<'a, X> = ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, SegmentedCoord<RangedCoordi32>>>;

/// One system's corpus score with its 95% interval.
pub(super) struct Interval<'a> {
    pub name: &'a str,
    pub score: f64,
    pub lo: f64,
    pub hi: f64,
}

#[allow(clippy::needless_pass_by_value, reason = "the shape `map_err` passes")]
fn draw_err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> anyhow::Error {
    anyhow!("cannot draw the chart: {e}")
}

/// Room for the longest system name on the left (about 7 px a character).
#[allow(clippy::cast_possible_truncation, reason = "clamped to 60..=240")]
fn label_width<'a>(names: impl Iterator<Item = &'a str>) -> u32 {
    (names.map(|n| n.chars().count()).max().unwrap_or(0) * 7 + 16).clamp(60, 240) as u32
}

/// The value range of a chart, padded by 5% (1 unit when flat).
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    let pad = if hi > lo { (hi - lo) * 0.05 } else { 1.0 };
    (lo - pad, hi + pad)
}

/// The systems' rows, one a system from top to bottom, on the value axis
/// `x`; `draw` adds the series.
#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap, reason = "a few hundred systems at most")]
fn by_system<X>(
    names: &[&str],
    x: Range<X::ValueType>,
    desc: &str,
    draw: impl FnOnce(&mut Chart<'_, X>) -> Result<()>,
) -> Result<String>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Range<X::ValueType>: AsRangedCoord<CoordDescType = X, Value = X::ValueType>,
{
    let n = names.len();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 70 + ROW * n as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(34)
            .y_label_area_size(label_width(names.iter().copied()))
            .build_cartesian_2d(x, (0..n as i32).into_segmented())
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(RGBColor(238, 240, 243))
            .bold_line_style(RGBColor(214, 218, 224))
            .x_labels(8)
            .y_labels(n)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => {
                    usize::try_from(*i).ok().and_then(|i| names.get(i)).map_or_else(String::new, |s| (*s).to_owned())
                }
                _ => String::new(),
            })
            .x_desc(desc)
            .draw()
            .map_err(draw_err)?;
        draw(&mut chart)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// The systems' scores as dots with their intervals as horizontal bars.
#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap, reason = "a few hundred systems at most")]
pub(super) fn intervals(metric: &str, rows: &[Interval<'_>]) -> Result<String> {
    let lo = rows.iter().map(|r| r.lo.min(r.score)).fold(f64::INFINITY, f64::min);
    let hi = rows.iter().map(|r| r.hi.max(r.score)).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = padded(lo, hi);
    let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
    by_system::<RangedCoordf64>(&names, lo..hi, &format!("{metric} with its 95% bootstrap interval"), |chart| {
        let colour = RGBColor(31, 90, 160);
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                ErrorBar::new_horizontal(SegmentValue::CenterOf(i as i32), r.lo, r.score, r.hi, colour.filled(), 10)
            }))
            .map_err(draw_err)?;
        chart
            .draw_series(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| Circle::new((r.score, SegmentValue::CenterOf(i as i32)), 4, colour.filled())),
            )
            .map_err(draw_err)?;
        Ok(())
    })
}

/// One box per system: the quartiles of its sentence scores, whiskers 1.5
/// interquartile ranges past them, and the scores beyond as circles.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "a few hundred systems at most; scores fit f32 for drawing"
)]
pub(super) fn boxes(metric: &str, systems: &[(&str, &[f64])]) -> Result<String> {
    let all = systems.iter().flat_map(|(_, s)| s.iter().copied()).filter(|x| x.is_finite());
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    let (lo, hi) = if lo.is_finite() { padded(lo, hi) } else { (0.0, 1.0) };
    let names: Vec<&str> = systems.iter().map(|s| s.0).collect();
    by_system::<RangedCoordf32>(&names, lo as f32..hi as f32, &format!("sentence {metric}"), |chart| {
        let colour = RGBColor(31, 90, 160);
        chart
            .draw_series(systems.iter().enumerate().filter_map(|(i, (_, scores))| {
                let finite: Vec<f64> = scores.iter().copied().filter(|x| x.is_finite()).collect();
                (!finite.is_empty()).then(|| {
                    Boxplot::new_horizontal(SegmentValue::CenterOf(i as i32), &Quartiles::new(&finite))
                        .width(14)
                        .style(colour)
                })
            }))
            .map_err(draw_err)?;
        // Outliers: the scores beyond the whiskers (1.5 interquartile ranges
        // past the quartiles), as circles, so the axis's range is explained.
        let outliers = systems.iter().enumerate().flat_map(|(i, (_, scores))| {
            let finite: Vec<f64> = scores.iter().copied().filter(|x| x.is_finite()).collect();
            let fences = (!finite.is_empty()).then(|| Quartiles::new(&finite).values());
            finite.into_iter().filter_map(move |x| {
                let [lower, _, _, _, upper] = fences?;
                let x = x as f32;
                (x < lower || x > upper)
                    .then(|| Circle::new((x, SegmentValue::CenterOf(i as i32)), 2, colour.stroke_width(1)))
            })
        });
        chart.draw_series(outliers).map_err(draw_err)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn box_plots_draw_the_outliers_their_axis_runs_to() {
        let scores = [1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 100.0];
        let svg = super::boxes("TER", &[("a", &scores[..])]).unwrap();
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
        let svg = super::boxes("TER", &[("a", &scores[..6])]).unwrap();
        assert_eq!(svg.matches("<circle").count(), 0);
    }
}
