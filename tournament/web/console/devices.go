package console

import (
	"encoding/base64"
	"fmt"
	"html/template"

	"github.com/gin-gonic/gin"
	"github.com/skip2/go-qrcode"

	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// deviceLine is a table device open at the table, on the table's page:
// its link and the QR code of it, for the table's phone to scan.
type deviceLine struct {
	URL     string
	QR      template.URL // a data: URL of the QR code's PNG
	Expires string
	Record  bool
}

// deviceLines lists the devices open at the table of ts, with their QR
// codes; a device sealed under other servers' keys is left out.
func (s *Pages) deviceLines(c *gin.Context, ts tableState) ([]deviceLine, error) {
	ds, err := s.svc.TableDevices(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number)
	if err != nil {
		return nil, err
	}
	var out []deviceLine
	for _, d := range ds {
		url, err := s.devices.URL(d)
		if err != nil {
			continue
		}
		png, err := qrcode.Encode(url, qrcode.Medium, 256)
		if err != nil {
			return nil, fmt.Errorf("qr code: %w", err)
		}
		qr := template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
		out = append(out, deviceLine{URL: url, QR: qr, Expires: s.i18n.In(s.i18n.Lang(c)).Time(d.Expires), Record: d.Record})
	}
	return out, nil
}

// OpenDevice opens a table device for the :tn table, with its record page
// when the form asks (record=1), and shows its QR code on the table's page.
func (s *Pages) OpenDevice(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	in, _ := s.devices.New(c.PostForm("record") == "1")
	if _, err := s.svc.OpenDevice(c.Request.Context(), auth.Judge(c), tid, n, number, in); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Table, tid, n, number)+"#device", "flash.device_opened"), nil
}

// RevokeDevices ends the :tn table's devices, on every server at once.
func (s *Pages) RevokeDevices(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	if err := s.svc.RevokeDevices(c.Request.Context(), auth.Judge(c), tid, n, number); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Table, tid, n, number)+"#device", "flash.device_revoked"), nil
}
