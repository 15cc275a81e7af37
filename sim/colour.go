package sim

import "math"

// RGB is a linear-light colour (not gamma encoded), each channel 0..1 for
// surfaces; lamp colours may exceed 1.
type RGB [3]float64

func (c RGB) scale(s float64) RGB { return RGB{c[0] * s, c[1] * s, c[2] * s} }
func (c RGB) add(d RGB) RGB       { return RGB{c[0] + d[0], c[1] + d[1], c[2] + d[2]} }
func (c RGB) lum() float64        { return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2] }

// srgbToLinear decodes one sRGB channel.
func srgbToLinear(v float64) float64 {
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// linearToSRGB encodes one linear channel, clamped to 0..1.
func linearToSRGB(v float64) float64 {
	switch {
	case v <= 0:
		return 0
	case v >= 1:
		return 1
	case v <= 0.0031308:
		return v * 12.92
	}
	return 1.055*math.Pow(v, 1/2.4) - 0.055
}

// HSV builds a linear colour from hue (degrees), saturation and value as a
// person would pick them on screen (sRGB).
func HSV(h, s, v float64) RGB {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := v - c
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	return RGB{srgbToLinear(r + m), srgbToLinear(g + m), srgbToLinear(b + m)}
}

// Kelvin gives the linear colour of a black body at temperature t, scaled to
// luminance 1 (a usual approximation, good from 1500 K to 15000 K).
func Kelvin(t float64) RGB {
	t /= 100
	var r, g, b float64
	if t <= 66 {
		r = 255
		g = 99.4708025861*math.Log(t) - 161.1195681661
	} else {
		r = 329.698727446 * math.Pow(t-60, -0.1332047592)
		g = 288.1221695283 * math.Pow(t-60, -0.0755148492)
	}
	switch {
	case t >= 66:
		b = 255
	case t <= 19:
		b = 0
	default:
		b = 138.5177312231*math.Log(t-10) - 305.0447927307
	}
	c := RGB{
		srgbToLinear(clamp01(r / 255)),
		srgbToLinear(clamp01(g / 255)),
		srgbToLinear(clamp01(b / 255)),
	}
	return c.scale(1 / c.lum())
}

func clamp01(v float64) float64 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// col is RGB for the renderer's inner loops (a struct, which the compiler
// keeps in registers, where it would keep an array in memory).
type col struct{ r, g, b float64 }

func (c RGB) lin() col { return col{c[0], c[1], c[2]} }

func (c col) scale(s float64) col { return col{c.r * s, c.g * s, c.b * s} }
func (c col) mul(d col) col       { return col{c.r * d.r, c.g * d.g, c.b * d.b} }
func (c col) add(d col) col       { return col{c.r + d.r, c.g + d.g, c.b + d.b} }

func lerpCol(a, b col, t float64) col {
	return col{a.r + (b.r-a.r)*t, a.g + (b.g-a.g)*t, a.b + (b.b-a.b)*t}
}
