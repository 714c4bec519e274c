// VCUp of one router input port, synthesizable. Port contract: docs/RTL.md.
//
// The buffer holds up to 64 packets (its size in flits is cfg_buffer_flits, at most 64, and a
// packet has at least one flit). A packet's space is taken with its head beat (the upstream has
// spent the credits for all of it); it is stored whole, then the tree's row of the routing table
// is read (cfg_table_cycles) and the head analysed (cfg_analysis_cycles), which gives its
// destinations: directions, the processor, the PEGroup. Each packet has its own timer, so a
// packet behind another is routed while the one ahead issues. The oldest packet then asks the
// crossbar for one copy at a time (req_*); a granted copy holds the VC's crossbar input for
// grant_cycles, and after its last copy the packet's space is free (free_*: the credits
// upstream).
module vcup (
    input logic         clk,
    input logic         rst,                  // synchronous, active high
    input logic [  3:0] cfg_table_cycles,     // 1..15
    input logic [  3:0] cfg_analysis_cycles,  // 1..15
    input logic [  6:0] cfg_buffer_flits,     // 17..64
    input logic [ 15:0] cfg_node,             // this node's id, as the header's src
    input logic [223:0] cfg_table,            // 16 rows of 14 bits, tree t in bits 14t+13:14t

    input logic        in_head,   // the head flit is written this cycle: fields below valid
    input logic        in_tail,   // the tail flit is written this cycle (with in_head: 1 flit)
    input logic [ 3:0] in_kind,   // the header's kind field
    input logic [ 3:0] in_tree,
    input logic [ 4:0] in_flits,  // flits on the wire, 1..17
    input logic [15:0] in_src,
    input logic [31:0] in_id,     // carried for the trace, not interpreted

    output logic        req_valid,     // the oldest packet asks for a copy
    output logic [ 7:0] req_dirs,      // its destinations still to serve: directions,
    output logic        req_pe,        // the processor,
    output logic        req_pegroup,   // the PEGroup
    input  logic        grant_valid,   // the crossbar takes a copy this cycle
    input  logic [ 3:0] grant_target,  // 0..7 a direction, 8 the processor, 9 the PEGroup
    input  logic [15:0] grant_cycles,  // 1..: the copy holds the crossbar input this long

    output logic       free_valid,  // one cycle: the oldest packet's space is free
    output logic [4:0] free_flits,

    output logic [ 6:0] occupancy,   // flits taken
    output logic [ 2:0] head_stage,  // the oldest packet's: 0 none, 1 storing, 2 table,
    output logic [31:0] head_id,     // 3 analysis, 4 issuing
    output logic [ 2:0] last_stage,  // the newest packet's
    output logic [31:0] last_id,

    output logic err_overflow,  // one cycle: a head beat with no room for its packet
    output logic err_beat,      // one cycle: a tail beat with no packet being stored
    output logic err_packet,    // one cycle: a tree not through this node, or a kind not on VCUp
    output logic err_grant      // one cycle: a grant of nothing asked for; ignored
);

  localparam int Depth = 64;
  localparam logic [2:0] Idle = 3'd0, Storing = 3'd1, Table = 3'd2, Analysis = 3'd3,
      Issuing = 3'd4;
  // The header's kind field (models/core/packet.h).
  localparam logic [3:0] KindBroadcast = 4'd3, KindBroadcastRequest = 4'd4, KindReduce = 4'd5,
      KindUpCredit = 4'd6, KindAllreduceResult = 4'd10;

  logic [2:0] e_stage[Depth];
  logic [3:0] e_timer[Depth];
  logic [3:0] e_kind[Depth];
  logic [3:0] e_tree[Depth];
  logic [4:0] e_flits[Depth];
  logic [15:0] e_src[Depth];
  logic [31:0] e_id[Depth];
  logic [13:0] e_row[Depth];  // member, is_root, pe, to_root (3), dirs (8): bit 0 first
  logic [9:0] e_outs[Depth];  // {pegroup, pe, dirs}

  logic [5:0] rd, wr;
  logic [6:0] count;
  logic [15:0] xfer;  // cycles the copy on the crossbar input still takes after this one
  logic xfer_last;  // it is the oldest packet's last copy

  wire [5:0] newest = wr - 6'd1;
  wire [9:0] target = 10'd1 << grant_target;
  wire granted = grant_valid && req_valid && (e_outs[rd] & target) != 10'd0;
  wire [9:0] outs_left = e_outs[rd] & ~target;
  wire pop = (granted && outs_left == 10'd0 && grant_cycles == 16'd1) ||
      (xfer == 16'd1 && xfer_last);
  wire [6:0] occupancy_left = occupancy - (pop ? {2'b0, e_flits[rd]} : 7'd0);
  wire [7:0] room = {1'b0, cfg_buffer_flits} - {1'b0, occupancy_left};
  wire take = in_head && {3'b0, in_flits} <= room;

  // The head analysis: the destinations {pegroup, pe, dirs}, from the tree's row (its member
  // bit aside).
  function automatic logic [9:0] destinations(input logic [3:0] kind, input logic [12:0] row,
                                              input logic [15:0] src, input logic [15:0] node);
    logic is_root = row[0];
    logic to_pe = row[1] && src != node;  // not back to the processor that sent it
    logic [2:0] up = row[4:2];
    logic [7:0] dirs = row[12:5];
    if ((kind == KindBroadcastRequest && is_root) || kind == KindBroadcast ||
        kind == KindAllreduceResult)  // the root turns a request into a broadcast
      destinations = {dirs == 8'd0 && !to_pe, to_pe, dirs};
    else if (kind == KindBroadcastRequest) destinations = {2'b00, 8'd1 << up};
    else destinations = {2'b10, 8'd0};  // reduce and credit packets: to the PEGroup
  endfunction

  // A packet the table cannot route: its tree does not pass this node, or it is of a kind that
  // never travels on a collective VC.
  function automatic logic unroutable(input logic [3:0] kind, input logic member);
    unroutable = !member || !(kind inside {KindBroadcast, KindBroadcastRequest, KindReduce,
                                           KindUpCredit, KindAllreduceResult});
  endfunction

  assign req_valid = count != 7'd0 && e_stage[rd] == Issuing && e_outs[rd] != 10'd0 &&
      xfer == 16'd0;
  assign req_dirs = e_outs[rd][7:0];
  assign req_pe = e_outs[rd][8];
  assign req_pegroup = e_outs[rd][9];
  assign head_stage = count == 7'd0 ? Idle : e_stage[rd];
  assign head_id = count == 7'd0 ? 32'd0 : e_id[rd];
  assign last_stage = count == 7'd0 ? Idle : e_stage[newest];
  assign last_id = count == 7'd0 ? 32'd0 : e_id[newest];

  always_ff @(posedge clk) begin
    free_valid <= 1'b0;
    err_overflow <= 1'b0;
    err_beat <= 1'b0;
    err_packet <= 1'b0;
    err_grant <= 1'b0;
    if (rst) begin
      rd <= 6'd0;
      wr <= 6'd0;
      count <= 7'd0;
      occupancy <= 7'd0;
      xfer <= 16'd0;
      xfer_last <= 1'b0;
      for (int i = 0; i < Depth; i++) e_stage[i] <= Idle;
    end else begin
      // Table read and head analysis, each packet on its own timer.
      for (int i = 0; i < Depth; i++) begin
        if (e_stage[i] == Table || e_stage[i] == Analysis) begin
          if (e_timer[i] != 4'd1) e_timer[i] <= e_timer[i] - 4'd1;
          else if (e_stage[i] == Table) begin
            e_row[i] <= cfg_table[14*e_tree[i]+:14];
            e_stage[i] <= Analysis;
            e_timer[i] <= cfg_analysis_cycles;
          end else begin
            e_outs[i] <= destinations(e_kind[i], e_row[i][13:1], e_src[i], cfg_node);
            if (unroutable(e_kind[i], e_row[i][0])) err_packet <= 1'b1;
            e_stage[i] <= Issuing;
          end
        end
      end
      // Copies: one at a time through the crossbar input.
      if (grant_valid && !granted) err_grant <= 1'b1;
      if (granted) begin
        e_outs[rd] <= outs_left;
        xfer <= grant_cycles - 16'd1;
        xfer_last <= outs_left == 10'd0;
      end else if (xfer != 16'd0) xfer <= xfer - 16'd1;
      if (pop) begin
        e_stage[rd] <= Idle;
        rd <= rd + 6'd1;
        free_valid <= 1'b1;
        free_flits <= e_flits[rd];
      end
      // Flits in: the head takes the packet's space, the tail starts its table read.
      if (in_head) begin
        if (!take) err_overflow <= 1'b1;
        else begin
          e_kind[wr] <= in_kind;
          e_tree[wr] <= in_tree;
          e_flits[wr] <= in_flits;
          e_src[wr] <= in_src;
          e_id[wr] <= in_id;
          e_stage[wr] <= in_tail ? Table : Storing;
          e_timer[wr] <= cfg_table_cycles;
          wr <= wr + 6'd1;
        end
      end else if (in_tail) begin
        if (count == 7'd0 || e_stage[newest] != Storing) err_beat <= 1'b1;
        else begin
          e_stage[newest] <= Table;
          e_timer[newest] <= cfg_table_cycles;
        end
      end
      count <= count - {6'd0, pop} + {6'd0, take};
      occupancy <= occupancy_left + (take ? {2'b0, in_flits} : 7'd0);
    end
  end

endmodule
