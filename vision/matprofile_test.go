//go:build matprofile

package vision

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// TestMain fails the run when a test leaves a Mat unclosed; run it with
// go test -tags matprofile ./vision/
func TestMain(m *testing.M) {
	code := m.Run()
	if n := gocv.MatProfile.Count(); n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		fmt.Printf("%d Mats were not closed:\n%s", n, b.String())
		os.Exit(1)
	}
	os.Exit(code)
}
