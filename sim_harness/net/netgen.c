/* netgen.c - generate the network netlist, its per-channel glue and its config. */
#include "net/netgen.h"
#include "../../firmware/lib/flit.h" /* the configuration bus widths, the link flit */
#include "net/dbg_map.h"

/* Connections of one router port, as Verilog expressions. */
static void wire_port(FILE *f, const topo *t, int r, int p, int lw)
{
    int np = t->nports, in = t->in_link[r * np + p], out = t->out_link[r * np + p];
    int term = topo_port_term(t, r, p);
    if (term >= 0) {
        int ch = term * t->k + (p - t->nnet) % t->k;
        /* the NI-to-router link is registered: router inputs come from flops only */
        fprintf(
            f,
            "  logic inj_valid_q%d; logic [FW-1:0] inj_flit_q%d; logic ej_credit_q%d; logic [%d:0] ej_credit_vc_q%d;\n",
            ch, ch, ch, LINK_VC_W - 1, ch);
        fprintf(
            f,
            "  always_ff @(posedge clk_i) begin inj_valid_q%d <= rst_ni && inj_valid_%d; inj_flit_q%d <= inj_flit_%d; "
            "ej_credit_q%d <= rst_ni && ej_credit_%d; ej_credit_vc_q%d <= ej_credit_vc_%d; end\n",
            ch, ch, ch, ch, ch, ch, ch, ch);
        fprintf(f, "  assign r%d_in_valid[%d] = inj_valid_q%d;\n", r, p, ch);
        fprintf(f, "  assign r%d_in_flit[%d +: LW] = LW'(inj_flit_q%d);\n", r, p * lw, ch);
        fprintf(f, "  assign inj_credit_%d = r%d_in_credit[%d];\n", ch, r, p);
        fprintf(f, "  assign inj_credit_vc_%d = r%d_in_credit_vc[%d +: %d];\n", ch, r, p * LINK_VC_W, LINK_VC_W);
        fprintf(f, "  assign ej_valid_%d = r%d_out_valid[%d];\n", ch, r, p);
        fprintf(f, "  assign ej_flit_%d = r%d_out_flit[%d +: FW];\n", ch, r, p * lw);
        fprintf(f, "  assign r%d_out_credit[%d] = ej_credit_q%d;\n", r, p, ch);
        fprintf(f, "  assign r%d_out_credit_vc[%d +: %d] = ej_credit_vc_q%d;\n", r, p * LINK_VC_W, LINK_VC_W, ch);
        return;
    }
    if (in >= 0) {
        const topo_link *l = &t->links[in];
        fprintf(f, "  assign r%d_in_valid[%d] = r%d_out_valid[%d];\n", r, p, l->src, l->src_port);
        fprintf(f, "  assign r%d_in_flit[%d +: LW] = r%d_out_flit[%d +: LW];\n", r, p * lw, l->src, l->src_port * lw);
    } else {
        fprintf(f, "  assign r%d_in_valid[%d] = 1'b0;\n", r, p);
        fprintf(f, "  assign r%d_in_flit[%d +: LW] = '0;\n", r, p * lw);
    }
    if (out >= 0) {
        const topo_link *l = &t->links[out];
        fprintf(f, "  assign r%d_out_credit[%d] = r%d_in_credit[%d];\n", r, p, l->dst, l->dst_port);
        fprintf(f, "  assign r%d_out_credit_vc[%d +: %d] = r%d_in_credit_vc[%d +: %d];\n", r, p * LINK_VC_W, LINK_VC_W,
                l->dst, l->dst_port * LINK_VC_W, LINK_VC_W);
    } else {
        fprintf(f, "  assign r%d_out_credit[%d] = 1'b0;\n", r, p);
        fprintf(f, "  assign r%d_out_credit_vc[%d +: %d] = %d'd0;\n", r, p * LINK_VC_W, LINK_VC_W, LINK_VC_W);
    }
}

/* A unit with L > 1 lanes: lane l is the router's port P-1+l both ways (a
 * head to the unit with EJSEL = l leaves the router there; the unit's lane
 * l sends into it). */
static void wire_lanes(FILE *f, const topo *t, const router_cfg *rc, int r, int P, int L)
{
    int na = netgen_addresses(t, rc), q = P - 1, fw = LINK_FLIT_W, lw = LINK_SLOT_W, vb = LINK_VC_W;
    char stream[64] = "";
    if (rc->stream) snprintf(stream, sizeof stream, ", .Stream(1), .StreamMaxFlits(%d)", rc->smax);
    fprintf(f,
            "  logic [%d:0] u%d_ov, u%d_oc, u%d_iv, u%d_ic;\n  logic [%d:0] u%d_of, u%d_if;\n  logic [%d:0] u%d_ocv, "
            "u%d_icv;\n",
            L - 1, r, r, r, r, L * fw - 1, r, r, L * vb - 1, r, r);
    fprintf(f,
            "  xnoc_ncu #(.NumPorts(%d), .NumVcs(%d), .BufDepth(%d), .NumAddrs(%d), .NumTerms(%d), .NumSlots(%d), "
            ".XorLat(%d),\n"
            "             .MaxFlits(%d), .Timeout(%d)%s, .NumLanes(%d)%s%s) u_u%d (\n"
            "    .clk_i(clk_i), .rst_ni(rst_q),\n"
            "    .cfg_we_i(cfg_we_q), .cfg_kind_i(cfg_kind_q), .cfg_addr_i(cfg_addr_q), .cfg_data_i(cfg_data_q[%d +: "
            "%d]),\n"
            "    .in_valid_i(u%d_iv), .in_flit_i(u%d_if), .in_credit_o(u%d_ic), .in_credit_vc_o(u%d_icv),\n"
            "    .out_valid_o(u%d_ov), .out_flit_o(u%d_of), .out_credit_i(u%d_oc), .out_credit_vc_i(u%d_ocv),\n"
            "    .dbg_en_i(dbg_en_i), .dbg_addr_i(dbg_addr_i[%d:0]), .dbg_data_o(u%d_dbg), .err_o(u%d_err),\n"
            "    .clk_en_o(), .clk_en_d_o());\n",
            P, rc->vcs, rc->buf, na, t->nterms, rc->slots, rc->xorlat, rc->ncmax, rc->timeout,
            rc->ncu_ops == NCU_OPS_XOR ? ", .NcuOps(0)" : "", L, router_lane_reserve(t, rc) ? ", .LaneReserve(1)" : "",
            stream, r, CFG_DATA_W * r, CFG_DATA_W, r, r, r, r, r, r, r, r, DBG_UNIT_ADDR_W - 1, r, r);
    for (int l = 0; l < L; l++, q++) {
        fprintf(f, "  assign r%d_in_valid[%d] = u%d_ov[%d];\n  assign r%d_in_flit[%d +: FW] = u%d_of[%d +: FW];\n", r,
                q, r, l, r, q * lw, r, l * fw);
        if (lw > fw) fprintf(f, "  assign r%d_in_flit[%d +: LW-FW] = '0;\n", r, q * lw + fw);
        fprintf(f,
                "  assign u%d_oc[%d] = r%d_in_credit[%d];\n  assign u%d_ocv[%d +: %d] = r%d_in_credit_vc[%d +: %d];\n",
                r, l, r, q, r, l * vb, vb, r, q * vb, vb);
        fprintf(f, "  assign u%d_iv[%d] = r%d_out_valid[%d];\n  assign u%d_if[%d +: FW] = r%d_out_flit[%d +: FW];\n", r,
                l, r, q, r, l * fw, r, q * lw);
        fprintf(
            f, "  assign r%d_out_credit[%d] = u%d_ic[%d];\n  assign r%d_out_credit_vc[%d +: %d] = u%d_icv[%d +: %d];\n",
            r, q, r, l, r, q * vb, vb, r, l * vb, vb);
    }
}

/* The network-coding unit of router r sits on its last port, P-1. */
static void wire_unit(FILE *f, const topo *t, const router_cfg *rc, int r, int P)
{
    int na = netgen_addresses(t, rc), q = P - 1, fw = LINK_FLIT_W, lw = LINK_SLOT_W, vb = LINK_VC_W;
    int L = router_lanes(t, rc);
    if (L > 1) { /* lane l into router port P-1+l (docs/router.md, "Multicast lanes") */
        wire_lanes(f, t, rc, r, P, L);
        return;
    }
    fprintf(
        f,
        "  xnoc_ncu #(.NumPorts(%d), .NumVcs(%d), .BufDepth(%d), .NumAddrs(%d), .NumTerms(%d), .NumSlots(%d), "
        ".XorLat(%d),\n"
        "             .MaxFlits(%d), .Timeout(%d)%s) u_u%d (\n"
        "    .clk_i(clk_i), .rst_ni(rst_q),\n"
        "    .cfg_we_i(cfg_we_q), .cfg_kind_i(cfg_kind_q), .cfg_addr_i(cfg_addr_q), .cfg_data_i(cfg_data_q[%d +: "
        "%d]),\n"
        "    .in_valid_i(r%d_out_valid[%d]), .in_flit_i(r%d_out_flit[%d +: FW]),\n"
        "    .in_credit_o(r%d_out_credit[%d]), .in_credit_vc_o(r%d_out_credit_vc[%d +: %d]),\n"
        "    .out_valid_o(r%d_in_valid[%d]), .out_flit_o(r%d_in_flit[%d +: FW]),\n"
        "    .out_credit_i(r%d_in_credit[%d]), .out_credit_vc_i(r%d_in_credit_vc[%d +: %d]),\n"
        "    .dbg_en_i(dbg_en_i), .dbg_addr_i(dbg_addr_i[%d:0]), .dbg_data_o(u%d_dbg), .err_o(u%d_err),\n"
        "    .clk_en_o(), .clk_en_d_o());\n",
        P, rc->vcs, rc->buf, na, t->nterms, rc->slots, rc->xorlat, rc->ncmax, rc->timeout,
        /* the RTL's default is every operator: a network with the default keeps its netlist (and its cached model) */
        rc->ncu_ops == NCU_OPS_XOR ? ", .NcuOps(0)" : "", r, CFG_DATA_W * r, CFG_DATA_W, r, q, r, q * lw, r, q, r,
        q * vb, vb, r, q, r, q * lw, r, q, r, q * vb, vb, DBG_UNIT_ADDR_W - 1, r, r);
    /* the unit's flit fills its port's slot up to the padding (docs/router.md) */
    if (lw > fw) fprintf(f, "  assign r%d_in_flit[%d +: LW-FW] = '0;\n", r, q * lw + fw);
}

void netgen_verilog(FILE *f, const topo *t, const router_cfg *rc, int monitor)
{
    int fw = LINK_FLIT_W, lw = LINK_SLOT_W, vb = LINK_VC_W, P = netgen_ports(t, rc), nch = t->nterms * t->k;
    fprintf(f, "// Generated by xnoc from the topology description: %s, k=%d, vcs=%d, buf=%d", t->name, t->k, rc->vcs,
            rc->buf);
    if (rc->ncu)
        fprintf(f, ", coding units (slots=%d, xorlat=%d, ncmax=%d%s)", rc->slots, rc->xorlat, rc->ncmax,
                rc->ncu_ops == NCU_OPS_XOR ? ", ops=xor" : "");
    fprintf(f, ".\n// Do not edit; change the topology string or the router parameters instead.\n");
    fprintf(f, "/* verilator lint_off UNUSEDSIGNAL */\n/* verilator lint_off PINCONNECTEMPTY */\n");
    fprintf(f,
            "module xnoc_network (\n  input  logic clk_i,\n  input  logic rst_ni,\n"
            "  input  logic cfg_clk_i,\n  input  logic cfg_we_i,\n  input  logic [1:0] cfg_kind_i,\n"
            "  input  logic [%d:0] cfg_addr_i,\n  input  logic [%d:0] cfg_data_i,\n"
            "  input  logic dbg_en_i,\n  input  logic [9:0] dbg_router_i,\n  input  logic [%d:0] dbg_addr_i,\n"
            "  output logic [31:0] dbg_data_o,\n  output logic [%d:0] dbg_all_o,\n  output logic err_o",
            CFG_ADDR_W - 1, CFG_DATA_W * t->nrouters - 1, DBG_ADDR_W - 1, 32 * t->nrouters - 1);
    for (int ch = 0; ch < nch; ch++)
        fprintf(f,
                ",\n  input  logic inj_valid_%d,\n  input  logic [%d:0] inj_flit_%d,\n"
                "  output logic inj_credit_%d,\n  output logic [%d:0] inj_credit_vc_%d,\n"
                "  output logic ej_valid_%d,\n  output logic [%d:0] ej_flit_%d,\n"
                "  input  logic ej_credit_%d,\n  input  logic [%d:0] ej_credit_vc_%d",
                ch, fw - 1, ch, ch, vb - 1, ch, ch, fw - 1, ch, ch, vb - 1, ch);
    for (int r = 0; monitor && r < t->nrouters; r++) {
        for (int p = 0; p < P; p++)
            fprintf(f, ",\n  output logic mon_r%d_p%d_valid,\n  output logic [%d:0] mon_r%d_p%d_flit", r, p, fw - 1, r,
                    p);
        if (rc->ncu) fprintf(f, ",\n  output logic mon_u%d_valid,\n  output logic [%d:0] mon_u%d_flit", r, fw - 1, r);
    }
    fprintf(f, "\n);\n  localparam int FW = %d;\n  localparam int LW = %d;\n  localparam int P = %d;\n", fw, lw, P);
    /* a router's ports: P, and a unit's lanes past the first (ports P..RP-1) */
    int L = router_lanes(t, rc), RP = P + L - 1;
    const char *pw = L > 1 ? "RP" : "P";
    if (L > 1) fprintf(f, "  localparam int RP = %d;\n", RP);
    for (int r = 0; r < t->nrouters; r++) {
        fprintf(f, "  logic [%s-1:0] r%d_in_valid, r%d_in_credit, r%d_out_valid, r%d_out_credit;\n", pw, r, r, r, r);
        fprintf(f, "  logic [%s*LW-1:0] r%d_in_flit, r%d_out_flit;\n", pw, r, r);
        fprintf(f, "  logic [%s*%d-1:0] r%d_in_credit_vc, r%d_out_credit_vc;\n", pw, vb, r, r);
        fprintf(f, "  logic [31:0] r%d_dbg;\n  logic r%d_err;\n", r, r);
        if (rc->ncu) fprintf(f, "  logic [31:0] u%d_dbg;\n  logic u%d_err;\n", r, r);
    }
    /* The routers' and units' reset, registered once here: its fan-out is
     * then logic of the network's clock, not of a top-level input (which a
     * simulation model evaluates at every step, both clock edges). */
    fprintf(f, "  logic rst_q;\n  always_ff @(posedge clk_i) rst_q <= rst_ni;\n");
    /* The configuration registers, on their own clock: the harness pulses
     * cfg_clk_i to load a row, then clocks the network once to write it.
     * Nothing behind them changes while the network runs, so a simulation
     * model never evaluates the config wiring of the routers and units on
     * the network's clock (docs/architecture.md, "Configuration"). */
    fprintf(f,
            "  logic cfg_we_q;\n  logic [1:0] cfg_kind_q;\n  logic [%d:0] cfg_addr_q;\n  logic [%d:0] cfg_data_q;\n"
            "  always_ff @(posedge cfg_clk_i) begin\n    cfg_we_q   <= cfg_we_i;\n    cfg_kind_q <= cfg_kind_i;\n"
            "    cfg_addr_q <= cfg_addr_i;\n    cfg_data_q <= cfg_data_i;\n  end\n",
            CFG_ADDR_W - 1, CFG_DATA_W * t->nrouters - 1);
    for (int r = 0; r < t->nrouters; r++) {
        for (int p = 0; p < t->nports; p++) wire_port(f, t, r, p, lw);
        if (rc->ncu) wire_unit(f, t, rc, r, P);
        /* routers see config kinds 0 (table) and 1 (ports); kind 2 is the units' */
        fprintf(f,
                "  xnoc_router #(.NumPorts(%d), .NumVcs(%d), .BufDepth(%d), .NumAddrs(%d), "
                ".NumClasses(%d),\n"
                "                .NumGroups(%d), .RouteBits(%d)) u_r%d (\n"
                "    .clk_i(clk_i), .rst_ni(rst_q),\n"
                "    .cfg_we_i(cfg_we_q && !cfg_kind_q[1]), .cfg_kind_i(cfg_kind_q[0]), .cfg_addr_i(cfg_addr_q),\n"
                "    .cfg_data_i(cfg_data_q[%d +: %d]),\n"
                "    .in_valid_i(r%d_in_valid), .in_flit_i(r%d_in_flit),\n"
                "    .in_credit_o(r%d_in_credit), .in_credit_vc_o(r%d_in_credit_vc),\n"
                "    .out_valid_o(r%d_out_valid), .out_flit_o(r%d_out_flit),\n"
                "    .out_credit_i(r%d_out_credit), .out_credit_vc_i(r%d_out_credit_vc),\n"
                "    .dbg_en_i(dbg_en_i), .dbg_addr_i(dbg_addr_i), .dbg_data_o(r%d_dbg), .err_o(r%d_err),\n"
                /* the network's own address count (Shared = 0: a constant the router does not read) */
                "    .num_addrs_i(16'd%d), .idle_o(),\n"
                /* the next values of the link registers: a tile's (rtl/xnoc_tile.sv) */
                "    .out_valid_d_o(), .out_flit_d_o(), .in_credit_d_o(), .in_credit_vc_d_o());\n",
                RP, rc->vcs, rc->buf, netgen_addresses(t, rc), router_classes(t, rc), router_groups(t, rc),
                topo_port_bits(t), r, CFG_DATA_W * r, CFG_DATA_W, r, r, r, r, r, r, r, r, r, r,
                netgen_addresses(t, rc));
    }
    for (int r = 0; monitor && r < t->nrouters; r++) { /* the monitor taps: copies of existing wires */
        for (int p = 0; p < P; p++)
            fprintf(f,
                    "  assign mon_r%d_p%d_valid = r%d_out_valid[%d];\n  assign mon_r%d_p%d_flit = r%d_out_flit[%d +: "
                    "FW];\n",
                    r, p, r, p, r, p, r, p * lw);
        if (rc->ncu)
            fprintf(f, "  assign mon_u%d_valid = r%d_in_valid[%d];\n  assign mon_u%d_flit = r%d_in_flit[%d +: FW];\n",
                    r, r, P - 1, r, r, (P - 1) * lw);
    }
    /* the unit's window of debug addresses (DBG_UNIT_BASE + i, net/dbg_map.h) reads the unit, the rest the router */
    int uw = DBG_ADDR_W - DBG_UNIT_ADDR_W; /* the window's address bits */
    fprintf(f, "  always_comb begin\n    dbg_data_o = '0;\n    if (dbg_en_i) case (dbg_router_i)\n");
    for (int r = 0; r < t->nrouters; r++) {
        if (rc->ncu)
            fprintf(f, "      10'd%d: dbg_data_o = (dbg_addr_i[%d:%d] == %d'h%x) ? u%d_dbg : r%d_dbg;\n", r,
                    DBG_ADDR_W - 1, DBG_UNIT_ADDR_W, uw, DBG_UNIT_BASE >> DBG_UNIT_ADDR_W, r, r);
        else fprintf(f, "      10'd%d: dbg_data_o = r%d_dbg;\n", r, r);
    }
    fprintf(f, "      default: dbg_data_o = '0;\n    endcase\n  end\n");
    /* every router's word at once (router r at [32r +: 32]), dbg_router_i aside: one
     * evaluation of the model reads an address of the whole network (xg_dbg_all) */
    for (int r = 0; r < t->nrouters; r++) {
        if (rc->ncu)
            fprintf(f, "  assign dbg_all_o[%d +: 32] = (dbg_addr_i[%d:%d] == %d'h%x) ? u%d_dbg : r%d_dbg;\n", 32 * r,
                    DBG_ADDR_W - 1, DBG_UNIT_ADDR_W, uw, DBG_UNIT_BASE >> DBG_UNIT_ADDR_W, r, r);
        else fprintf(f, "  assign dbg_all_o[%d +: 32] = r%d_dbg;\n", 32 * r, r);
    }
    fprintf(f, "  assign err_o = 1'b0");
    for (int r = 0; r < t->nrouters; r++) fprintf(f, rc->ncu ? " | r%d_err | u%d_err" : " | r%d_err", r, r);
    fprintf(f, ";\nendmodule\n");
}

int netgen_monitor_slots(const topo *t, const router_cfg *rc)
{
    return t->nrouters * netgen_ports(t, rc) + (rc->ncu ? t->nrouters : 0);
}

void netgen_glue_io(FILE *f, const topo *t, const router_cfg *rc, int monitor)
{
    int nch = t->nterms * t->k;
    fprintf(f,
            "// Generated by xnoc for %s, k=%d: terminal channel <-> top-level ports of\n"
            "// xnoc_network, included by sim_harness/glue/xnoc_glue.cpp.\n",
            t->name, t->k);
    /* An idle injection port keeps its stale flit: the router ignores it. */
    fprintf(f, "static inline void drive_inputs(Vxnoc_network *m, const xflit *inj, const xcredit *ejc)\n{\n");
    for (int ch = 0; ch < nch; ch++)
        fprintf(f,
                "  m->inj_valid_%d = inj[%d].valid; if (inj[%d].valid) put(m->inj_flit_%d, inj[%d]);\n"
                "  m->ej_credit_%d = ejc[%d].valid; m->ej_credit_vc_%d = ejc[%d].vc;\n",
                ch, ch, ch, ch, ch, ch, ch, ch, ch);
    fprintf(f, "}\nstatic inline void read_outputs(Vxnoc_network *m, xflit *ej, xcredit *injc)\n{\n");
    for (int ch = 0; ch < nch; ch++)
        fprintf(f,
                "  ej[%d].valid = m->ej_valid_%d; if (ej[%d].valid) get(m->ej_flit_%d, ej[%d]);\n"
                "  injc[%d].valid = m->inj_credit_%d; injc[%d].vc = m->inj_credit_vc_%d;\n",
                ch, ch, ch, ch, ch, ch, ch, ch, ch);
    fprintf(f, "}\n");
    if (monitor) { /* idle taps are not decoded: the caller looks at valid first */
        int P = netgen_ports(t, rc);
        fprintf(f, "#define XNOC_MONITOR_SLOTS %d\nstatic inline void read_monitor(Vxnoc_network *m, xflit *o)\n{\n",
                netgen_monitor_slots(t, rc));
        for (int r = 0; r < t->nrouters; r++) {
            for (int p = 0; p < P; p++)
                fprintf(f, "  o[%d].valid = m->mon_r%d_p%d_valid; if (o[%d].valid) get(m->mon_r%d_p%d_flit, o[%d]);\n",
                        r * P + p, r, p, r * P + p, r, p, r * P + p);
            if (rc->ncu)
                fprintf(f, "  o[%d].valid = m->mon_u%d_valid; if (o[%d].valid) get(m->mon_u%d_flit, o[%d]);\n",
                        t->nrouters * P + r, r, t->nrouters * P + r, r, t->nrouters * P + r);
        }
        fprintf(f, "}\n");
    }
    /* cfg_data_i: CFG_DATA_W (8) bits per router; Verilator's C type depends on the width */
    int w = CFG_DATA_W * t->nrouters, per = 32 / CFG_DATA_W;
    fprintf(f, "static inline void set_cfg_row(Vxnoc_network *m, const uint8_t *d)\n{\n");
    if (w <= 64) {
        fprintf(f, "  m->cfg_data_i = 0");
        for (int r = 0; r < t->nrouters; r++) fprintf(f, "\n    | (uint64_t)d[%d] << %d", r, CFG_DATA_W * r);
        fprintf(f, ";\n");
    } else {
        for (int word = 0; word < (w + 31) / 32; word++) {
            fprintf(f, "  m->cfg_data_i[%d] = 0", word);
            for (int r = per * word; r < per * word + per && r < t->nrouters; r++)
                fprintf(f, " | (uint32_t)d[%d] << %d", r, CFG_DATA_W * (r - per * word));
            fprintf(f, ";\n");
        }
    }
    fprintf(f, "}\n");
}

int netgen_ports(const topo *t, const router_cfg *rc) { return t->nports + (rc->ncu ? 1 : 0); }
int netgen_addresses(const topo *t, const router_cfg *rc) { return t->nterms + (rc->ncu ? t->nrouters : 0); }

int netgen_route(const topo *t, const router_cfg *rc, int r, int addr)
{
    if (addr < t->nterms) return topo_route(t, r, addr);
    int q = addr - t->nterms;
    /* towards router q (a clos's spine has no terminals to aim at) */
    return q == r ? netgen_ports(t, rc) - 1 : topo_route_router(t, r, q);
}

/* Unit rows: 3 nibbles per port (router behind it, 0xFFF none), then 3 for the unit's own router. */
static int unit_rows(const topo *t, const router_cfg *rc) { return rc->ncu ? 3 * (netgen_ports(t, rc) + 1) : 0; }

/* Group-table rows (dragonfly, non-minimal routing): at router r, the port
 * towards group y: the global port if r holds the link, else the local
 * port to the router that does (0 for r's own group: never read). */
static int group_rows(const topo *t, const router_cfg *rc)
{
    return router_groups(t, rc) > 1 ? router_groups(t, rc) : 0;
}

/* Port attributes of a unit's lanes past the first (ports P..P+L-2: terminal-like, as the unit's port),
 * after every other row */
static int lane_rows(const topo *t, const router_cfg *rc) { return router_lanes(t, rc) - 1; }

int netgen_config_rows(const topo *t, const router_cfg *rc)
{
    return netgen_ports(t, rc) + netgen_addresses(t, rc) + group_rows(t, rc) + unit_rows(t, rc) + lane_rows(t, rc);
}

void netgen_config_row(const topo *t, const router_cfg *rc, int row, int *kind, int *addr, uint8_t *data)
{
    int P = netgen_ports(t, rc), na = netgen_addresses(t, rc);
    if (row < P) { /* port attributes; the unit's port is terminal-like */
        *kind = 1;
        *addr = row;
        for (int r = 0; r < t->nrouters; r++)
            data[r] = row < t->nports
                          ? (uint8_t)(t->port_dim[r * t->nports + row] | t->dateline[r * t->nports + row] << PORT_DIM_W)
                          : (uint8_t)DIM_TERM;
    } else if (row < P + na) { /* routing table */
        *kind = 0;
        *addr = row - P;
        for (int r = 0; r < t->nrouters; r++) data[r] = (uint8_t)netgen_route(t, rc, r, *addr);
    } else if (row < P + na + group_rows(t, rc)) { /* group table, after the routing table's rows */
        *kind = 0;
        *addr = row - P;
        for (int r = 0; r < t->nrouters; r++)
            data[r] = (uint8_t)(topo_df_group_port(t, r, *addr - na) < 0 ? 0 : topo_df_group_port(t, r, *addr - na));
    } else if (row >= netgen_config_rows(t, rc) - lane_rows(t, rc)) { /* a lane's port attributes */
        *kind = 1;
        *addr = P + row - (netgen_config_rows(t, rc) - lane_rows(t, rc));
        for (int r = 0; r < t->nrouters; r++) data[r] = (uint8_t)DIM_TERM;
    } else { /* unit: neighbours, own id */
        *kind = 2;
        *addr = row - P - na - group_rows(t, rc);
        int p = *addr / 3, nib = *addr % 3;
        for (int r = 0; r < t->nrouters; r++) {
            int v = r;
            if (p < P) {
                int l = p < t->nports ? t->out_link[r * t->nports + p] : -1;
                v = l >= 0 ? t->links[l].dst : 0xFFF;
            }
            data[r] = (uint8_t)(v >> (4 * nib) & 15);
        }
    }
}
