package scenario

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// survives Format and Parse unchanged.
func FuzzParse(f *testing.F) {
	for n := 1; n <= Count; n++ {
		data, err := BuiltinFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(good))
	f.Add([]byte("map:\n"))
	f.Add([]byte("name: x\nmap:\n a . . . . .\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFileSize {
			t.Skip() // Load refuses these before parsing
		}
		s, err := Parse(data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 0 {
				t.Errorf("Parse error %v is not a *ParseError with a line", err)
			}
			if s.Name != "" || s.Setup.Builders != nil {
				t.Errorf("Parse failed (%v) but returned a scenario", err)
			}
			return
		}
		out := Format(s)
		s2, err := Parse(out)
		if err != nil {
			t.Fatalf("Format output does not parse: %v\ninput:\n%q\noutput:\n%s", err, data, out)
		}
		if !reflect.DeepEqual(s, s2) {
			t.Fatalf("round trip changed the scenario:\n%+v\n%+v", s, s2)
		}
		if out2 := Format(s2); string(out2) != string(out) {
			t.Fatalf("Format is not stable:\n%s\n%s", out, out2)
		}
	})
}
