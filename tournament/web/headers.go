package web

import "github.com/gin-gonic/gin"

// contentSecurityPolicy allows the pages only what they load from this
// site: the stylesheet, console.js and the kiosk's script, images (the
// board is inline SVG; data: covers CSS icons), and the kiosk's event
// stream. No inline script or style runs, no other site frames the pages
// or receives their forms, and no <base> can redirect relative URLs.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// securityHeaders sets the security headers on every response, pages, JSON,
// static files and errors alike. They are set before the handler runs so a
// request refused by a later middleware carries them too.
func securityHeaders(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	// For browsers that predate frame-ancestors.
	h.Set("X-Frame-Options", "DENY")
	c.Next()
}
