package sim

import "companion/observation"

// Scene fully describes one render. Lengths are in cell pitches (the
// distance between neighbouring cell centres), angles in degrees, colours
// linear. The board centre is the origin: x runs to the right (columns 1 to
// 5), y away from the player (towards row A) and z up from the table top.
type Scene struct {
	Seed          int64
	Width, Height int // image size in pixels
	Camera        Camera

	Lighting string  // "one-lamp", "two-lamps" or "daylight"
	Lamps    []Lamp  // the lamps or the sun
	Ambient  RGB     // light from everywhere (room, sky), shadowless
	Exposure float64 // scale from scene light to sensor level

	Table  Table
	Style  BoardStyle
	Pieces Pieces
	Jitter [observation.Size * observation.Size]CellJitter // per cell, index row*5+col
	Spares []Spare                                         // pieces lying on the table beside the board
	Props  []Prop                                          // dice and cards on the table
	Board  observation.Board                               // the position on the board
	Hand   *Hand                                           // a hand over the board (AddHand), or nil

	// Camera imperfections.
	WhiteBalance RGB     // per-channel gains of the camera's white balance
	Vignette     float64 // light fall-off at the image corners, 0..1
	Blur         float64 // Gaussian optical blur sigma in pixels (0 = none)
	Sharpen      float64 // the camera's unsharp masking, 0 = none
	Aberration   float64 // lateral chromatic aberration: red scaled by 1+a, blue by 1-a
	Noise        float64 // sensor noise sigma in 8-bit levels
	JPEGQuality  int     // quality EncodeJPEG and WriteSample use
}

// Camera is a pinhole camera with mild radial distortion. Its optical axis
// goes through Target; the camera sits Distance away along that axis.
type Camera struct {
	Elevation  float64    // optical axis above the table, 90 = straight down
	Azimuth    float64    // axis swung round the vertical; > 0: camera to the player's right
	Roll       float64    // turn about the optical axis
	FOV        float64    // vertical field of view
	Distance   float64    // from the camera to Target
	Target     [3]float64 // a point on the optical axis
	Distortion float64    // radial k1 (< 0 barrel-like, > 0 pincushion-like)
}

// Lamp is a point lamp or, when Directional, the sun through a window.
type Lamp struct {
	Directional bool
	// Pos is the lamp's position, or for a directional lamp the unit
	// direction towards it.
	Pos [3]float64
	// Colour is the irradiance the lamp gives, facing it, at the centre of
	// the board top (point lamps fall off with the square of distance).
	Colour RGB
	// Size softens shadows: a point lamp's radius in pitches (the lamp is a
	// horizontal disc), or a directional lamp's angular radius in degrees.
	Size float64
}

// TableKind is the table top's material.
type TableKind uint8

const (
	Wood TableKind = iota
	Cloth
	Laminate
)

// Table is the surface the board stands on and what lies beyond it.
type Table struct {
	Kind       TableKind
	Colour     RGB     // main colour
	Colour2    RGB     // grain, weave or mottling colour
	Scale      float64 // texture feature size
	Angle      float64 // grain direction
	Gloss      float64 // specular strength (varnish)
	HalfWidth  float64 // the table ends at x = ±HalfWidth ...
	Far        float64 // ... and at y = Far
	Background RGB     // floor or wall beyond the table
}

// CellKind is the print of the board's cells.
type CellKind uint8

const (
	Grass CellKind = iota
	Sand
	Stone
)

// BoardStyle is the board: slab, frame, dividers, cells and cliff pedestal.
type BoardStyle struct {
	Height        float64 // board top above the table
	SlabThickness float64
	FrameWidth    float64 // frame around the 5x5 grid, each side
	DividerWidth  float64
	DividerHeight float64 // how far the dividers stand above the cells
	Cells         CellKind
	CellColour    RGB
	CellVariation float64 // per-cell tone variation, 0..1
	FrameColour   RGB
	SideColour    RGB // the slab's edge
	DividerColour RGB
	RockColour    RGB // pedestal
	RockColour2   RGB
	Overhang      float64    // pedestal top beyond the slab, each side
	Flare         [8]float64 // how far each pedestal side leans out at the table
}

// Pieces holds the set's proportions and colours.
type Pieces struct {
	Level1Top, Level1Size float64 // top height above the board, footprint
	Level2Top, Level2Size float64
	Level3Top, Level3Size float64
	TowerSides            int     // 0 round, else the number of sides
	Merlons               int     // crenellations round the tower top
	MerlonHeight          float64 // how deep the notches are
	DomeWidth             float64
	PawnWidth, PawnHeight float64

	BlockColour, WindowColour, DomeColour RGB
	BlueColour, LightColour, DarkColour   RGB
	DarkName                              string // "grey" or "purple"
	BlockGloss, PawnGloss, DomeGloss      float64
}

// Placement is a piece's small error in position (pitches) and turn (degrees).
type Placement struct{ DX, DY, Rot float64 }

// CellJitter is how the pieces on one cell sit.
type CellJitter struct {
	Blocks [3]Placement // level 1, 2 and 3
	Dome   Placement
	Pawn   Placement // Rot is the pawn's facing
	Female bool      // the pawn's sculpt
}

// SpareKind is a piece lying beside the board.
type SpareKind uint8

const (
	SpareLevel1 SpareKind = iota
	SpareLevel2
	SpareLevel3
	SpareDome
	SparePawn
)

// Spare is a piece on the table, off the board. A reader must ignore it.
type Spare struct {
	Kind     SpareKind
	Occupant observation.Occupant // pawn colour
	Female   bool
	X, Y     float64
	Rot      float64 // turn about the vertical
	Lying    bool    // a pawn lying on its side
}

// PropKind is something on the table that is not a piece.
type PropKind uint8

const (
	Die  PropKind = iota // a six-sided die, like the enemies' dice
	Card                 // a card lying face down
)

// Prop is a die or a card on the table, off the board. A reader must
// ignore it.
type Prop struct {
	Kind   PropKind
	X, Y   float64
	Rot    float64 // turn about the vertical
	Size   float64 // a die's edge, a card's width (its length is 1.4 times that)
	Colour RGB
	Top    int // the die's face up, 1-6
}

// Truth is what a render shows, for scoring a reader.
type Truth struct {
	Board observation.Board
	// Corners are the outer corners of the 5x5 grid (at ±2.5 pitches, at the
	// board top) in pixels: A1 (top left), A5 (top right), E5 (bottom
	// right), E1 (bottom left).
	Corners            [4][2]float64
	Elevation, Azimuth float64
	Roll, FOV          float64
	Lighting           string
	Seed               int64
	Width, Height      int
	GridFraction       float64 // grid height over image height
	// Hand says a hand is over the board: the frame is not settled.
	Hand bool
}
