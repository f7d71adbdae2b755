package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// StaffJSON is a staff account as the head reads it: never its password.
type StaffJSON struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Role   string `json:"role"`
	Active bool   `json:"active"`
}

func toStaffJSON(st tournament.Staff) StaffJSON {
	return StaffJSON{ID: st.ID, Name: st.Name, Role: string(st.Role), Active: st.Active}
}

// ListStaff answers {"staff":[{"id","name","role","active"}]}, by ID.
func (s *Handlers) ListStaff(c *gin.Context) (int, any, error) {
	list, err := s.svc.StaffList(c.Request.Context())
	if err != nil {
		return 0, nil, err
	}
	out := []StaffJSON{}
	for _, st := range list {
		out = append(out, toStaffJSON(st))
	}
	return http.StatusOK, gin.H{"staff": out}, nil
}

type staffRequest struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// AddStaff makes an account: 201 {"id","name","role","password"}, the
// password answered this once (it is kept as a hash).
func (s *Handlers) AddStaff(c *gin.Context) (int, any, error) {
	var req staffRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	password := auth.NewPassword()
	hash, err := auth.HashPassword(password)
	if err != nil {
		return 0, nil, err
	}
	st, err := s.svc.AddStaff(c.Request.Context(), auth.Judge(c), tournament.StaffInput{Name: req.Name, Role: tournament.Role(req.Role)}, hash)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, gin.H{"id": st.ID, "name": st.Name, "role": st.Role, "password": password}, nil
}

type staffEditRequest struct {
	Role   *string `json:"role"`
	Active *bool   `json:"active"`
}

// EditStaff changes an account's role or activity: 200 the account. A
// deactivated account's sessions end on every server.
func (s *Handlers) EditStaff(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "sid")
	if err != nil {
		return 0, nil, err
	}
	var req staffEditRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	e := tournament.StaffEdit{Active: req.Active}
	if req.Role != nil {
		r := tournament.Role(*req.Role)
		e.Role = &r
	}
	st, err := s.svc.EditStaff(c.Request.Context(), auth.Judge(c), id, e)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toStaffJSON(st), nil
}

// ResetStaffPassword gives an account a new password and ends its
// sessions: 200 {"password"}, answered this once.
func (s *Handlers) ResetStaffPassword(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "sid")
	if err != nil {
		return 0, nil, err
	}
	password := auth.NewPassword()
	hash, err := auth.HashPassword(password)
	if err != nil {
		return 0, nil, err
	}
	if _, err := s.svc.ResetStaffPassword(c.Request.Context(), auth.Judge(c), id, hash); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, gin.H{"password": password}, nil
}

type sessionRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// CreateSession logs a script in to an account: 200 {"token","role",
// "expires_at"}, a bearer token for 12 hours; 401 for a wrong name or
// password, counted as a login's.
func (s *Handlers) CreateSession(c *gin.Context) (int, any, error) {
	var req sessionRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	token, st, expires, err := s.sessions.NewSessionToken(c, req.Name, req.Password)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, gin.H{"token": token, "role": st.Role, "expires_at": expires.UTC().Format(time.RFC3339)}, nil
}

// EndSession logs the request's session token out, on every server: 204.
func (s *Handlers) EndSession(c *gin.Context) (int, any, error) {
	if err := s.sessions.EndSessionToken(c); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}
