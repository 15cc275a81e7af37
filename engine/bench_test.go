package engine

import (
	"testing"
)

// midGame is a realistic mid-game position: four enemies, two builders,
// buildings of every height, water and a target zone.
//
//	     1  2  3  4  5
//	A    0L 1  0  0  0D
//	B    2  W  1B 0  0
//	C    0  1  3  2  0L
//	D    0B 0  1  W  0
//	E    1  0  T  0  0D
func midGame(t testing.TB) Position {
	return pos(t, "..... .W... ..... ...W. ..T..", "01000 20100 01320 00100 10000", "B3 D1",
		"light-female A1 S, dark-male A5 W, light-male C5 W, dark-female E5 N")
}

func BenchmarkEnemyTurn(b *testing.B) {
	p := midGame(b)
	dice := []int{2, 5, 3, 6}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, _, err := EnemyTurn(p, dice); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLegalTurns(b *testing.B) {
	p := midGame(b)
	b.Run("LegalTurns", func(b *testing.B) {
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			LegalTurns(p)
		}
	})
	b.Run("AppendLegalTurns", func(b *testing.B) {
		buf := make([]Turn, 0, MaxTurns)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			buf = AppendLegalTurns(buf[:0], &p)
		}
	})
}

func BenchmarkInferTurn(b *testing.B) {
	p := midGame(b)
	turns := LegalTurns(p)
	q, _, err := PlayerTurn(p, turns[len(turns)/2])
	if err != nil {
		b.Fatal(err)
	}
	seen := q.Board()
	b.Run("match", func(b *testing.B) {
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if _, err := InferTurn(p, seen); err != nil {
				b.Fatal(err)
			}
		}
	})
	wrong := seen
	wrong[0].Level = 3
	b.Run("no match", func(b *testing.B) {
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if _, err := InferTurn(p, wrong); err == nil {
				b.Fatal("matched a wrong board")
			}
		}
	})
}
