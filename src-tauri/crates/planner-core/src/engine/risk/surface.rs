//! The fast path of a risk analysis: the plan's outcomes as an exact function of the drawn
//! figures, fitted from a few full evaluations and checked against more, so that thousands of
//! draws re-price the resolved plan without validating or evaluating it again.
//!
//! Why it holds: the engine's dispatch (which layer serves which hours each month) depends on
//! the workloads and the layers' kinds, never on a price, so with the plan fixed every cash line
//! is a quantity times a price, and a few are a product of two drawn figures (energy: PUE ×
//! tariff; resale: hardware price × the curve's position). Each output (decision total, NPV,
//! cumulative cash at the end of every month) is then a polynomial of degree one in each figure,
//! with pairwise products:
//!
//! `f(x) = f(x₀) + Σₖ cₖ tₖ + Σ₍ₐ,ᵦ₎ cₐᵦ tₐ tᵦ`, `tₖ = (xₖ − x₀ₖ) / (x₁ₖ − x₀ₖ)`,
//!
//! where `x₀` is every figure at its point and `x₁ₖ` figure `k` at its P90. `cₖ` is the full
//! evaluation with `k` at its P90 less the point; `cₐᵦ` comes from both at their P90, for every
//! pair that moves one scenario. The coefficients are the engine's decimal outcomes, so the
//! surface is decimal too.
//!
//! Checked, not assumed: the surface must give the full evaluation of every figure at its P10
//! (a second point on each line) and of a set of the joint draws, every output within
//! [`TOLERANCE`]; otherwise the caller evaluates every draw in full. A figure whose effect is not
//! of this form (a threshold, a product of three) fails the check.
//!
//! Draws are ranked in binary floating point (`approx`); every figure reported is the decimal
//! surface at the draws the ranking picks (`exact`), and means use the surface's linearity on
//! the decimal draws.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// How far the surface may be from a full evaluation, in the plan's currency, on any output.
pub const TOLERANCE: Decimal = Decimal::from_parts(1, 0, 0, false, 6);

/// Every scenario's outputs in one full evaluation: `values[s][o]`.
pub type Outputs = Vec<Vec<Decimal>>;

/// One term of the surface: a figure, or the product of two.
#[derive(Debug)]
struct Term {
    a: usize,
    b: Option<usize>,
    /// `coef[s][o]`; only scenarios the term moves are stored.
    coef: Vec<(usize, Vec<Decimal>)>,
    coef_f: Vec<(usize, Vec<f64>)>,
}

/// The fitted surface and the draws' outcomes ranked on it.
#[derive(Debug)]
pub struct Surface {
    base: Outputs,
    terms: Vec<Term>,
    x0: Vec<Decimal>,
    span: Vec<Decimal>,
    /// `draws[k][d]`, figure `k` in draw `d`.
    draws: Vec<Vec<Decimal>>,
    count: usize,
    /// `approx[(d * scenarios + s) * outputs + o]`.
    approx: Vec<f64>,
    scenarios: usize,
    outputs: usize,
    means: Vec<Decimal>,
}

fn to_f(d: Decimal) -> f64 {
    d.to_f64().unwrap_or(0.0)
}

fn difference(a: &Outputs, b: &Outputs) -> Outputs {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.iter().zip(y).map(|(p, q)| p - q).collect())
        .collect()
}

/// A product term below this on every output is the rounding of the decimals it was taken from
/// (28 significant digits), not an effect.
const NEGLIGIBLE: Decimal = Decimal::from_parts(1, 0, 0, false, 12);

/// The scenarios an effect moves by more than `floor`, with their outputs.
fn moved(effect: Outputs, floor: Decimal) -> Vec<(usize, Vec<Decimal>)> {
    effect
        .into_iter()
        .enumerate()
        .filter(|(_, v)| v.iter().any(|c| c.abs() > floor))
        .collect()
}

/// The largest difference between two sets of outputs.
pub fn largest_gap(a: &Outputs, b: &Outputs) -> Decimal {
    a.iter()
        .zip(b)
        .flat_map(|(x, y)| x.iter().zip(y).map(|(p, q)| (p - q).abs()))
        .max()
        .unwrap_or_default()
}

/// What the fit needs: the point, each figure's P90 outcome and the pairs to evaluate.
#[derive(Debug)]
pub struct Fit {
    pub base: Outputs,
    pub x0: Vec<Decimal>,
    pub x1: Vec<Decimal>,
    linear: Vec<Vec<(usize, Vec<Decimal>)>>,
}

impl Fit {
    /// The linear terms from the point `base` (figures at `x0`) and each figure alone at `x1`.
    pub fn new(base: Outputs, x0: Vec<Decimal>, x1: Vec<Decimal>, at_x1: &[Outputs]) -> Fit {
        let linear = at_x1
            .iter()
            .map(|o| moved(difference(o, &base), Decimal::ZERO))
            .collect();
        Fit { base, x0, x1, linear }
    }

    /// The pairs of figures that move one scenario together: the products to evaluate.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.linear.len();
        let moves = |k: usize, s: usize| self.linear[k].iter().any(|(t, _)| *t == s);
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if (0..self.base.len()).any(|s| moves(a, s) && moves(b, s)) {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The surface, from the pairs' outcomes (both figures at `x1`, in the order of
    /// [`Fit::pairs`]), over the `count` draws `draws` (`draws[k][d]`: figure `k` in draw `d`).
    pub fn surface(
        self,
        pairs: &[(usize, usize)],
        at_pairs: &[Outputs],
        draws: Vec<Vec<Decimal>>,
        count: usize,
    ) -> Surface {
        let span: Vec<Decimal> = self.x1.iter().zip(&self.x0).map(|(a, b)| a - b).collect();
        let linear_outputs: Vec<Outputs> = self
            .linear
            .iter()
            .map(|moves| {
                let mut full = vec![vec![Decimal::ZERO; self.base.first().map_or(0, Vec::len)]; self.base.len()];
                for (s, v) in moves {
                    full[*s].clone_from(v);
                }
                full
            })
            .collect();
        let mut terms: Vec<Term> = Vec::new();
        for (k, moves) in self.linear.into_iter().enumerate() {
            terms.push(term(k, None, moves));
        }
        for (&(a, b), outcome) in pairs.iter().zip(at_pairs) {
            // c_ab = f(a, b at x1) − f(a) − f(b) + f(x0) = (f_ab − base) − c_a − c_b
            let rise = difference(outcome, &self.base);
            let cross = difference(&difference(&rise, &linear_outputs[a]), &linear_outputs[b]);
            let moves = moved(cross, NEGLIGIBLE);
            if !moves.is_empty() {
                terms.push(term(a, Some(b), moves));
            }
        }
        let mut surface = Surface {
            scenarios: self.base.len(),
            outputs: self.base.first().map_or(0, Vec::len),
            base: self.base,
            terms,
            x0: self.x0,
            span,
            draws,
            count,
            approx: Vec::new(),
            means: Vec::new(),
        };
        surface.means = surface.weight_means();
        surface
    }
}

fn term(a: usize, b: Option<usize>, coef: Vec<(usize, Vec<Decimal>)>) -> Term {
    let coef_f = coef
        .iter()
        .map(|(s, v)| (*s, v.iter().map(|c| to_f(*c)).collect()))
        .collect();
    Term { a, b, coef, coef_f }
}

impl Surface {
    /// The number of draws.
    pub fn count(&self) -> usize {
        self.count
    }

    fn t(&self, k: usize, x: Decimal) -> Decimal {
        if self.span[k].is_zero() {
            Decimal::ZERO
        } else {
            (x - self.x0[k]) / self.span[k]
        }
    }

    fn weight(&self, term: &Term, x: &impl Fn(usize) -> Decimal) -> Decimal {
        let a = self.t(term.a, x(term.a));
        term.b.map_or(a, |b| a * self.t(b, x(b)))
    }

    /// Every output of every scenario with the figures at `x(k)`, in decimals.
    pub fn at(&self, x: impl Fn(usize) -> Decimal) -> Outputs {
        let mut out = self.base.clone();
        for term in &self.terms {
            let w = self.weight(term, &x);
            for (s, v) in &term.coef {
                for (o, c) in v.iter().enumerate() {
                    out[*s][o] += c * w;
                }
            }
        }
        out
    }

    /// Every output of every scenario in draw `d`, in decimals.
    pub fn at_draw(&self, d: usize) -> Outputs {
        self.at(|k| self.draws[k][d])
    }

    /// Output `o` of scenario `s` in draw `d`, in decimals.
    pub fn exact(&self, d: usize, s: usize, o: usize) -> Decimal {
        let mut value = self.base[s][o];
        for term in &self.terms {
            if let Some((_, v)) = term.coef.iter().find(|(t, _)| *t == s) {
                value += v[o] * self.weight(term, &|k| self.draws[k][d]);
            }
        }
        value
    }

    /// Output `o` of scenario `s` in draw `d`, in floating point, to rank the draws.
    pub fn approx(&self, d: usize, s: usize, o: usize) -> f64 {
        self.approx[(d * self.scenarios + s) * self.outputs + o]
    }

    /// Ranks draws `from..to` in floating point (called on each core for its share).
    pub fn rank(&self, from: usize, to: usize) -> Vec<f64> {
        let n = self.draws.len();
        let x0: Vec<f64> = self.x0.iter().map(|x| to_f(*x)).collect();
        let span: Vec<f64> = self.span.iter().map(|x| to_f(*x)).collect();
        let base: Vec<f64> = self.base.iter().flatten().map(|c| to_f(*c)).collect();
        let mut out = Vec::with_capacity((to - from) * base.len());
        let mut t = vec![0.0; n];
        for d in from..to {
            for k in 0..n {
                t[k] = if span[k] == 0.0 {
                    0.0
                } else {
                    (to_f(self.draws[k][d]) - x0[k]) / span[k]
                };
            }
            let start = out.len();
            out.extend_from_slice(&base);
            for term in &self.terms {
                let w = term.b.map_or(t[term.a], |b| t[term.a] * t[b]);
                for (s, v) in &term.coef_f {
                    let row = &mut out[start + s * self.outputs..start + (s + 1) * self.outputs];
                    for (cell, c) in row.iter_mut().zip(v) {
                        *cell += c * w;
                    }
                }
            }
        }
        out
    }

    /// Keeps the ranked draws (the parts from [`Surface::rank`], in order).
    pub fn set_ranked(&mut self, approx: Vec<f64>) {
        self.approx = approx;
    }

    /// The mean over the draws of each term's weight, in decimals: the mean of a surface is the
    /// surface of the means of its weights.
    fn weight_means(&self) -> Vec<Decimal> {
        let count = Decimal::from(self.count().max(1));
        self.terms
            .iter()
            .map(|term| {
                let sum: Decimal = (0..self.count())
                    .map(|d| {
                        let dx = |k: usize| self.draws[k][d] - self.x0[k];
                        term.b.map_or_else(|| dx(term.a), |b| dx(term.a) * dx(b))
                    })
                    .sum();
                let scale = term.b.map_or(self.span[term.a], |b| self.span[term.a] * self.span[b]);
                if scale.is_zero() {
                    Decimal::ZERO
                } else {
                    sum / count / scale
                }
            })
            .collect()
    }

    /// The mean of output `o` of scenario `s` over the draws, in decimals.
    pub fn mean(&self, s: usize, o: usize) -> Decimal {
        let mut value = self.base[s][o];
        for (term, w) in self.terms.iter().zip(&self.means) {
            if let Some((_, v)) = term.coef.iter().find(|(t, _)| *t == s) {
                value += v[o] * w;
            }
        }
        value
    }

    /// How many terms the surface has: figures, and products of two.
    pub fn terms(&self) -> (usize, usize) {
        let products = self.terms.iter().filter(|t| t.b.is_some()).count();
        (self.terms.len() - products, products)
    }
}
