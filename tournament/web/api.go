package web

import "github.com/gin-gonic/gin"

// apiHandler is a JSON API handler: it parses the request and calls the
// service, then returns the status and body of a success, or the error.
type apiHandler func(c *gin.Context) (status int, body any, err error)

// api adapts an apiHandler: a success is written as JSON, an error goes
// through fail, the one mapping of errors to statuses and messages.
func (s *Server) api(h apiHandler) gin.HandlerFunc {
	return func(c *gin.Context) {
		status, body, err := h(c)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.JSON(status, body)
	}
}
