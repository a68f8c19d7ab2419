module github.com/hookx-dev/hookx

go 1.26
