package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/node"
)

// routeRow is one line of akisim routes: the route a traffic type takes
// from a requester to a memory, as the node's route tables hold it.
type routeRow struct {
	traffic, requester, memory string
	routes                     []fabric.Route
	ties                       string // how the requester uses several tied routes
	numa                       int    // NUMA domain of host memory at the route's end, or of the requesting cores; -1 if none
}

// Traffic types, as akisim routes names them.
const (
	trafficSDMA   = "sdma"   // SDMA copy data (the engine on the requesting GCD)
	trafficKernel = "kernel" // a kernel's loads and stores
	trafficSignal = "signal" // an SDMA copy's completion signal
	trafficHost   = "host"   // the host's cores storing to mapped GPU memory
)

// runRoutes prints the route of every traffic type for every ordered GCD
// pair, then between every NUMA domain and every GCD.
func runRoutes(o *options, w io.Writer) error {
	if o.format != "text" && o.format != "csv" {
		return bad("-format: akisim routes writes text or csv, not %q", o.format)
	}
	c, err := loadConfig(o)
	if err != nil {
		return err
	}
	n, err := node.Build(c)
	if err != nil {
		return err
	}
	rows := routeRows(n)
	header := []string{"traffic", "requester", "memory", "hops", "route", "links", "choice"}
	if o.format == "csv" {
		cw := csv.NewWriter(w)
		cw.Write(header)
		for _, r := range rows {
			cw.Write(r.fields(n))
		}
		cw.Flush()
		return cw.Error()
	}
	fmt.Fprintf(w, "# %s: routes from the requester to the memory (hubs: GCD ids, H = host IO die, N<d> = NUMA domain d's DDR4)\n", c.Name)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r.fields(n), "\t"))
	}
	return tw.Flush()
}

// routeRows lists the GCD pairs first (requester, memory, traffic type),
// then each NUMA domain with each GCD.
func routeRows(n *node.Node) []routeRow {
	c, rt := n.Config, n.Routes
	g, host := c.GCD.Count, c.GCD.Count
	gcd := func(i int) string { return "GCD " + strconv.Itoa(i) }
	numa := func(d int) string { return "NUMA " + strconv.Itoa(d) }
	sdmaTies, kernelTies := c.Routing.SDMATies, c.Routing.KernelTies
	var rows []routeRow
	for a := 0; a < g; a++ {
		for b := 0; b < g; b++ {
			if a == b {
				continue
			}
			rows = append(rows,
				routeRow{trafficSDMA, gcd(a), gcd(b), rt.DataRoutes(a, b), sdmaTies, -1},
				routeRow{trafficKernel, gcd(a), gcd(b), rt.KernelRoutes(a, b), kernelTies, -1},
				routeRow{trafficSignal, gcd(a), gcd(b), []fabric.Route{rt.SignalRoute(a, b)}, config.TiesTable, -1})
		}
	}
	for d := 0; d < c.Host.NUMADomains; d++ {
		for b := 0; b < g; b++ {
			rows = append(rows,
				routeRow{trafficSDMA, gcd(b), numa(d), rt.DataRoutes(b, host), sdmaTies, d},
				routeRow{trafficKernel, gcd(b), numa(d), rt.KernelRoutes(b, host), kernelTies, d},
				routeRow{trafficSignal, gcd(b), numa(d), []fabric.Route{rt.SignalRoute(b, host)}, config.TiesTable, d},
				routeRow{trafficHost, "cores, " + numa(d), gcd(b), rt.KernelRoutes(host, b), kernelTies, d})
		}
	}
	return rows
}

// toDRAM says the route ends in host memory, on the DDR4 of domain r.numa
// (the host's cores requesting start there instead).
func (r routeRow) toDRAM() bool { return r.numa >= 0 && r.traffic != trafficHost }

// tieChoice says how a requester uses several tied routes, by tie policy.
var tieChoice = map[string]string{
	config.TiesPerCopy: "copies alternate",
	config.TiesPin:     "one per array and CU",
	config.TiesSpray:   "transactions alternate",
}

// fields are the row's columns: several tied routes are separated by " | ".
func (r routeRow) fields(n *node.Node) []string {
	var hubs, links []string
	for _, rt := range r.routes {
		hubs = append(hubs, r.hubs(n.Config, rt))
		links = append(links, r.links(n, rt))
	}
	choice := "one route"
	if len(r.routes) > 1 {
		choice = tieChoice[r.ties]
	}
	return []string{r.traffic, r.requester, r.memory, strconv.Itoa(r.routes[0].Hops()),
		strings.Join(hubs, " | "), strings.Join(links, " | "), choice}
}

// hubs writes a route as its hubs, with the DDR4 of host memory at its end.
func (r routeRow) hubs(c *config.Node, rt fabric.Route) string {
	var s []string
	for _, h := range rt {
		if h == c.GCD.Count {
			s = append(s, "H")
		} else {
			s = append(s, strconv.Itoa(h))
		}
	}
	if r.toDRAM() {
		s = append(s, "N"+strconv.Itoa(r.numa))
	}
	return strings.Join(s, "-")
}

// links names each link of a route with its width per direction, and the
// IO-die crossing to another NUMA domain's memory.
func (r routeRow) links(n *node.Node, rt fabric.Route) string {
	c := n.Config
	var s []string
	for i := 0; i+1 < len(rt); i++ {
		a, b := rt[i], rt[i+1]
		switch {
		case b == c.GCD.Count:
			s = append(s, fmt.Sprintf("host link %d (%g GB/s)", a, c.HostLink.BandwidthGBps))
		case a == c.GCD.Count:
			s = append(s, fmt.Sprintf("host link %d (%g GB/s)", b, c.HostLink.BandwidthGBps))
		default:
			l, unit := n.BundleOf[[2]int{a, b}].Lanes(), "lanes"
			if l == 1 {
				unit = "lane"
			}
			s = append(s, fmt.Sprintf("xGMI %d-%d (%d %s, %g GB/s)", a, b, l, unit, float64(l)*c.XGMI.LaneBandwidthGBps))
		}
	}
	if r.toDRAM() {
		last := rt[len(rt)-2] // the GCD whose host link reaches the IO die
		if c.Host.GCDNUMA[last] != r.numa {
			s = append(s, fmt.Sprintf("IO die to NUMA %d (+%g ns)", r.numa, c.Host.RemoteNUMANs))
		}
	}
	return strings.Join(s, ", ")
}
