// xnoc_ncu_emit - the output side of the network-coding unit (xnoc_ncu):
// sends ready slots into VC 0 of the router's unit port, one flit per
// cycle while credits last, then frees the slot.
//
//   ENCODE     one packet: head from the slot's out_* fields, a meta flit
//              naming the unit as its source, the mask (MC), the data.
//   REPLICATE  per output port one copy: the addresses of the slot's mask
//              that the routing table sends through that port; one address
//              gets a plain copy, several an MC copy to the unit of the
//              router behind the port with that part of the mask.
//
// The routing table (as per-port address masks), the routers behind the
// ports and this router's id come from the configuration rows the routers
// get too (kind 0: routing table; kind 2: unit rows, docs/network-coding.md).
module xnoc_ncu_emit #(
  parameter int NumPorts  = 6,     // router ports, the unit's (the last) included
  parameter int BufDepth  = 8,     // the router's input buffer per VC (credits)
  parameter int NumAddrs  = 16,
  parameter int NumTerms  = 8,     // terminals: the first unit address
  parameter int NumSlots  = 4,
  parameter int MaxFlits  = 32,
  localparam int PW  = xnoc_pkg::LinkPayloadW,
  localparam int FW  = xnoc_pkg::LinkFlitW,
  localparam int P   = NumPorts,
  localparam int S   = NumSlots,
  localparam int M   = (NumAddrs + 63) / 64,
  localparam int MW  = M * 64,
  localparam int SB  = (S > 1) ? $clog2(S) : 1,
  localparam int PB  = (P > 1) ? $clog2(P) : 1,
  localparam int NB  = $clog2(MaxFlits + 1),
  localparam int MB  = (M > 1) ? $clog2(M) : 1,
  localparam int MWB = $clog2(MW),
  localparam int EB  = (NB > MB + 1) ? NB : MB + 1,
  localparam int MA  = (S * MaxFlits > 1) ? $clog2(S * MaxFlits) : 1,
  localparam int CW  = $clog2(BufDepth + 1),
  localparam int AW  = xnoc_pkg::HeadDestW
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            cfg_we_i,
  input  logic [1:0]      cfg_kind_i,
  input  logic [xnoc_pkg::CfgAddrW-1:0] cfg_addr_i,
  input  logic [xnoc_pkg::CfgDataW-1:0] cfg_data_i,
  // the slots
  input  logic [S-1:0]    ready_i,
  input  logic [S-1:0]    kind_i,
  input  logic [16*S-1:0] tag_i,
  input  logic [16*S-1:0] src_i,
  input  logic [32*S-1:0] len_i,
  input  logic [4*S-1:0]  cnt_i,
  input  logic [AW*S-1:0] od_i,
  input  logic [S-1:0]    omc_i,
  input  logic [2*S-1:0]  oop_i,
  input  logic [4*S-1:0]  ocnt_i,
  input  logic [4*S-1:0]  func_i,          // the group's combining operator: every packet it sends carries it
  input  logic [S-1:0]    mset_i,
  output logic [SB-1:0]   emask_idx_o,     // the slot whose mask emask_i is
  input  logic [MW-1:0]   emask_i,
  output logic [MA-1:0]   emem_ra_o,
  input  logic [PW-1:0]   emem_rd_i,
  output logic            free_o,          // the slot free_slot_o is done
  output logic [SB-1:0]   free_slot_o,
  // into the router's input port
  output logic            out_valid_o,
  output logic [FW-1:0]   out_flit_o,
  input  logic            out_credit_i,
  input  logic [xnoc_pkg::LinkVcW-1:0] out_credit_vc_i,
  // errors and counters
  output logic            code_bad_o,      // a coded result with nowhere to go (dropped)
  output logic            scan_bad_o,      // a multicast subtree with no router behind the port (dropped)
  output logic [SB-1:0]   bad_slot_o,
  output logic [31:0]     coded_o,         // coded packets sent
  output logic [31:0]     repl_o,          // multicast copies sent
  output logic            idle_o           // no packet being sent, no flit on the way out
);
  localparam logic [AW-1:0] None = '1;
  // the emit FSM (lowRISC style: an enum type, explicit encodings)
  typedef enum logic [2:0] {
    EIdle = 3'd0, EScan = 3'd1, EHead = 3'd2, EMeta = 3'd3, EMask = 3'd4, EData = 3'd5
  } emit_state_e;

  // ---------------------------------------------------------------- config
  logic [MW-1:0] pm_q [P];    // addresses the routing table sends to port p
  logic [11:0]   nb_q [P];    // router behind port p, 0xFFF = none
  logic [11:0]   self_q;      // this router's id
  always_ff @(posedge clk_i) begin
    if (cfg_we_i && cfg_kind_i == 2'd0 && 32'(cfg_addr_i) < NumAddrs) begin
      for (int p = 0; p < P; p++) pm_q[p][MWB'(cfg_addr_i)] <= (32'(cfg_data_i) == p);
    end
    if (cfg_we_i && cfg_kind_i == 2'd2) begin
      for (int p = 0; p < P; p++) begin
        for (int n = 0; n < 3; n++) begin
          if (32'(cfg_addr_i) == 3 * p + n) nb_q[p][4*n +: 4] <= cfg_data_i[3:0];
        end
      end
      for (int n = 0; n < 3; n++) begin
        if (32'(cfg_addr_i) == 3 * P + n) self_q[4*n +: 4] <= cfg_data_i[3:0];
      end
    end
  end

  // ----------------------------------------------------------------- state
  emit_state_e   est_q, est_d;
  logic [SB-1:0] es_q, es_d;             // slot being emitted
  logic [PB-1:0] ep_q, ep_d;             // REPLICATE: port being served
  logic [MW-1:0] emask_q, emask_d;       // mask flits of the packet being sent
  xnoc_pkg::head_t ehead_q, ehead_d;  // the head of the packet being sent, by name (rtl/xnoc_pkg.sv)
  xnoc_pkg::meta_t emeta;             // its meta flit
  logic          emc_q, emc_d;
  logic [EB-1:0] en_q, en_d;
  logic          send, stail, cr_avail;
  logic [PW-1:0] spay;
  logic          ovalid_q;
  xnoc_pkg::link_flit_t oflit_q;       // the flit sent, by name
  logic [31:0]   coded_q, coded_d, repl_q, repl_d;

  logic          rd_any;
  logic [SB-1:0] rd_idx;
  xnoc_rr_arb #(.NumReqs(S)) u_sel (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (ready_i),
    .upd_i  (est_q == EIdle),
    .any_o  (rd_any),
    .idx_o  (rd_idx)
  );

  // credits for VC 0 of the router's input port
  logic [CW-1:0] unused_cr;
  xnoc_credit_counter #(.Depth(BufDepth), .Vc(0)) u_credit (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .return_i    (out_credit_i),
    .return_vc_i (out_credit_vc_i),
    .spend_i  (send),
    .avail_o  (cr_avail),
    .count_o  (unused_cr)
  );

  assign emask_idx_o = (est_q == EIdle) ? rd_idx : es_q;
  assign emem_ra_o   = MA'(32'(es_q) * MaxFlits + 32'(en_q));

  // REPLICATE: the addresses of the slot's mask that leave through port ep_q
  logic [MW-1:0] sub;
  logic          sub_any, sub_many;
  logic [AW-1:0] sub_first;
  always_comb begin
    sub       = '0;
    sub_any   = 1'b0;
    sub_many  = 1'b0;
    sub_first = '0;
    if (est_q == EScan) begin
      sub = emask_i & pm_q[ep_q];
      for (int a = NumAddrs - 1; a >= 0; a--) begin
        if (sub[a]) begin
          sub_many  = sub_any;
          sub_any   = 1'b1;
          sub_first = AW'(a);
        end
      end
    end
  end

  // a coded packet needs a destination (and a mask if MC); a REPLICATE
  // subtree needs a router behind the port
  logic ecode_bad, escan_bad;
  assign ecode_bad  = (est_q == EIdle) && rd_any && !kind_i[rd_idx] &&
                      (od_i[AW*rd_idx +: AW] == None || (omc_i[rd_idx] && !mset_i[rd_idx]));
  assign escan_bad  = (est_q == EScan) && sub_many && nb_q[ep_q] == 12'hFFF;
  assign code_bad_o = ecode_bad;
  assign scan_bad_o = escan_bad;
  assign bad_slot_o = ecode_bad ? rd_idx : es_q;

  logic [31:0]   data_len;
  logic [NB-1:0] data_flits;
  assign data_len   = len_i[32*es_q +: 32];
  assign data_flits = NB'((data_len + 32'd7) >> 3);

  always_comb begin
    logic last_port;
    est_d   = est_q;
    es_d    = es_q;
    ep_d    = ep_q;
    emask_d = emask_q;
    ehead_d = ehead_q;
    emc_d   = emc_q;
    en_d    = en_q;
    free_o  = 1'b0;
    free_slot_o = es_q;
    send    = 1'b0;
    stail   = 1'b0;
    spay    = ehead_q;
    emeta   = '0;
    coded_d = coded_q;
    repl_d  = repl_q;
    last_port = (32'(ep_q) == P - 1);
    unique case (est_q)
      EIdle: begin
        if (rd_any) begin
          es_d = rd_idx;
          ep_d = '0;
          if (kind_i[rd_idx]) begin
            est_d = EScan;
          end else if (ecode_bad) begin           // nowhere to send it: dropped, flagged
            free_o      = 1'b1;
            free_slot_o = rd_idx;
          end else begin
            // the coded packet: head with the slot's out_* fields, meta from the unit
            ehead_d = '0;
            ehead_d.dest = od_i[AW*rd_idx +: AW];
            ehead_d.mc = omc_i[rd_idx];
            ehead_d.op = oop_i[2*rd_idx +: 2];
            ehead_d.count = ocnt_i[4*rd_idx +: 4];
            ehead_d.func = func_i[4*rd_idx +: 4];
            ehead_d.out_dest = None;
            emc_d   = omc_i[rd_idx];
            emask_d = emask_i;
            est_d   = EHead;
          end
        end
      end
      EScan: begin
        if (escan_bad) begin                     // no router behind the port: dropped, flagged
          if (last_port) begin
            free_o = 1'b1;
            est_d  = EIdle;
          end else begin
            ep_d = ep_q + PB'(1);
          end
        end else if (sub_any) begin
          ehead_d = '0;
          ehead_d.out_dest = None;
          ehead_d.count = cnt_i[4*es_q +: 4];
          ehead_d.func = func_i[4*es_q +: 4];
          if (sub_many) begin                   // a subtree: the next router's unit
            ehead_d.dest = AW'(NumTerms) + AW'(nb_q[ep_q]);
            ehead_d.mc = 1'b1;
            emc_d          = 1'b1;
            emask_d        = sub;
          end else begin                        // a leaf: plain copy
            ehead_d.dest = sub_first;
            ehead_d.op = (32'(sub_first) >= NumTerms) ? 2'd1 : 2'd0;  // a unit takes it as ENCODE
            emc_d          = 1'b0;
          end
          est_d = EHead;
        end else if (last_port) begin
          free_o = 1'b1;
          est_d  = EIdle;
        end else begin
          ep_d = ep_q + PB'(1);
        end
      end
      EHead: begin
        spay = ehead_q;
        if (cr_avail) begin
          send  = 1'b1;
          est_d = EMeta;
        end
      end
      EMeta: begin
        emeta.len = data_len;                    // the meta flit
        emeta.tag = tag_i[16*es_q +: 16];
        emeta.src = kind_i[es_q] ? src_i[16*es_q +: 16] : 16'(32'(NumTerms) + 32'(self_q));
        spay      = emeta;
        if (cr_avail) begin
          send  = 1'b1;
          en_d  = '0;
          stail = !emc_q && data_flits == '0;
          est_d = emc_q ? EMask : EData;
        end
      end
      EMask: begin
        spay = emask_q[64 * 32'(en_q[MB-1:0]) +: 64];
        if (cr_avail) begin
          send = 1'b1;
          en_d = en_q + EB'(1);
          if (32'(en_q) == M - 1) begin
            en_d  = '0;
            stail = data_flits == '0;
            est_d = EData;
          end
        end
      end
      default: begin                            // EData
        spay = emem_rd_i;
        if (cr_avail) begin
          send  = 1'b1;
          en_d  = en_q + EB'(1);
          stail = (en_d == EB'(data_flits));
        end
      end
    endcase
    // after the tail: the next port of a REPLICATE, or the slot is done
    if (send && stail) begin
      if (kind_i[es_q]) begin
        repl_d = repl_q + 32'd1;
        if (last_port) begin
          free_o = 1'b1;
          est_d  = EIdle;
        end else begin
          ep_d  = ep_q + PB'(1);
          est_d = EScan;
        end
      end else begin
        coded_d = coded_q + 32'd1;
        free_o  = 1'b1;
        est_d   = EIdle;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      est_q    <= EIdle;
      ovalid_q <= 1'b0;
      coded_q  <= '0;
      repl_q   <= '0;
    end else begin
      est_q    <= est_d;
      ovalid_q <= send;
      coded_q  <= coded_d;
      repl_q   <= repl_d;
    end
  end
  always_ff @(posedge clk_i) begin
    es_q <= es_d;
    ep_q <= ep_d;
    en_q <= en_d;
    if (est_q == EIdle || est_q == EScan) begin   // a new packet's head and mask
      emask_q <= emask_d;
      ehead_q <= ehead_d;
      emc_q   <= emc_d;
    end
    if (send) begin   // on VC 0
      oflit_q.vc      <= '0;
      oflit_q.tail    <= stail;
      oflit_q.head    <= (est_q == EHead);
      oflit_q.payload <= spay;
    end
  end
  assign out_valid_o = ovalid_q;
  assign idle_o      = (est_q == EIdle) && !ovalid_q;
  assign out_flit_o  = oflit_q;
  assign coded_o     = coded_q;
  assign repl_o      = repl_q;
endmodule
