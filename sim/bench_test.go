package sim

import "testing"

func BenchmarkRender(b *testing.B) {
	scenes := []Scene{RandomScene(3), RandomScene(4)}
	for i := range scenes {
		scenes[i].Width, scenes[i].Height = 1280, 720
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Render(scenes[i%len(scenes)])
	}
}
