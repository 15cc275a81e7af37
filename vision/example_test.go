package vision_test

import (
	"fmt"
	"log"

	"companion/vision"
)

func ExampleReader_Read() {
	frame, err := vision.DecodeFile("board.jpg")
	if err != nil {
		log.Fatal(err)
	}
	defer frame.Close()
	r := vision.NewReader()
	defer r.Close()
	res, err := r.Read(frame)
	if err != nil {
		log.Fatal(err) // e.g. vision.ErrNoGrid: is the whole board in view?
	}
	for _, row := range res.Board.Tokens() {
		fmt.Println(row)
	}
}
