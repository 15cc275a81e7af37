package vision

import (
	"flag"
	"fmt"
	"math"
	"testing"
	"time"
)

var dbgSeed = flag.Int64("dbgseed", 0, "print the localisation steps for this sim seed")

func TestDebugLocate(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, truth := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	_, scale, err := r.prepare(m)
	if err != nil {
		t.Fatal(err)
	}
	ht, _ := homographyFromCorners(truth.Corners)
	hts := scaleHomography(ht, scale)
	debugLocate = true
	hs, ok := r.locate()
	debugLocate = false
	w, h := r.gray.Cols(), r.gray.Rows()
	fmt.Printf("seed %d el %.0f az %.0f: located %v; support found %.3f truth %.3f\n", *dbgSeed, truth.Elevation, truth.Azimuth, ok,
		r.edgeSupport(hs, w, h), r.edgeSupport(hts, w, h))
	for i, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		a, b := hs.apply(p), hts.apply(p)
		fmt.Printf("  corner %d found %.1f,%.1f truth %.1f,%.1f\n", i, a.X, a.Y, b.X, b.Y)
	}
	// Truth lines in Hough form, for comparison.
	for fam := 0; fam < 2; fam++ {
		for k := 0; k <= 5; k++ {
			var a, b pt
			if fam == 0 {
				a, b = hts.apply(pt{0, float64(k)}), hts.apply(pt{5, float64(k)})
			} else {
				a, b = hts.apply(pt{float64(k), 0}), hts.apply(pt{float64(k), 5})
			}
			th := math.Atan2(b.Y-a.Y, b.X-a.X) + math.Pi/2
			for th < 0 {
				th += math.Pi
			}
			for th >= math.Pi {
				th -= math.Pi
			}
			rho := a.X*math.Cos(th) + a.Y*math.Sin(th)
			fmt.Printf("  truth fam %d line %d: theta %.1f rho %.1f\n", fam, k, th*180/math.Pi, rho)
		}
	}
	raw, _ := r.lines.DataPtrFloat32()
	for i := 0; i+1 < len(raw) && i < 2*maxLines; i += 2 {
		fmt.Printf("  hough %d: theta %.1f rho %.1f\n", i/2, raw[i+1]*180/math.Pi, raw[i])
	}
}

func TestDebugTiming(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, _ := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	for i := 0; i < 3; i++ {
		t0 := time.Now()
		_, scale, _ := r.prepare(m)
		t1 := time.Now()
		hs, _ := r.locate()
		t2 := time.Now()
		h := r.refine(scaleHomography(hs, 1/scale))
		t3 := time.Now()
		var res Result
		r.readCells(scaleHomography(h, scale), &res)
		t4 := time.Now()
		fmt.Println("prepare", t1.Sub(t0), "locate", t2.Sub(t1), "refine", t3.Sub(t2), "cells", t4.Sub(t3))
	}
}

func TestDebugPose(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	for s := *dbgSeed; s < *dbgSeed+8; s++ {
		m, truth := simFrame(t, s)
		r := NewReader()
		_, scale, _ := r.prepare(m)
		h, _ := homographyFromCorners(truth.Corners)
		hs := scaleHomography(h, scale)
		w, hh := r.px.w, r.px.h
		defF := 0.5 * float64(hh) / math.Tan(50*math.Pi/180/2)
		cam := poseFromHomography(hs, float64(w)/2, float64(hh)/2, defF)
		trueF := 0.5 * float64(hh) / math.Tan(truth.FOV*math.Pi/180/2)
		fmt.Printf("seed %d: f %.0f true %.0f; elevation %.1f true %.1f; centre %.2f\n", s, cam.f, trueF, cam.elevation(), truth.Elevation, cam.centre())
		m.Close()
		r.Close()
	}
}
