// Replays a VCUp replay file (docs/RTL.md) through modules `vcup` in any simulator: one per
// direction port of the node, each given the inputs its port's block had in the model, clock edge
// by clock edge from its reset, with its outputs there compared with this simulation's. The file
// is +replay=FILE (default vcup.replay). Prints each output that differs (with the model's cycle
// and the port) and a summary line; ends with $fatal when any differed, with $finish otherwise.
//
// After the configuration line, each line is one rising edge one port's block had, from its
// reset edge on: the model's cycle it began, the port, the inputs it took, then the outputs after
// it. The model runs each port's clock only while its buffer holds packets, so a port's cycles
// may jump: the edges between were never there. Ports' lines interleave in time order.
module vcup_replay_tb;
  localparam int Ports = 8;  // direction ports of a 4-D torus, the most a node has

  // One clock and one set of inputs for every port's block: only the port whose edge comes next
  // is clocked (`enable`), so the others ignore them.
  logic clk = 1'b0, rst = 1'b1;
  logic [Ports-1:0] enable = '0;
  logic [3:0] cfg_table_cycles, cfg_analysis_cycles;
  logic [6:0] cfg_buffer_flits;
  logic [15:0] cfg_node;
  logic [223:0] cfg_table;
  logic in_head, in_tail, grant_valid;
  logic [3:0] in_kind, in_tree, grant_target;
  logic [4:0] in_flits;
  logic [15:0] in_src, grant_cycles;
  logic [31:0] in_id;
  logic req_valid[Ports], req_pe[Ports], req_pegroup[Ports], free_valid[Ports];
  logic [7:0] req_dirs[Ports];
  logic [4:0] free_flits[Ports];
  logic [6:0] occupancy[Ports];
  logic [2:0] head_stage[Ports], last_stage[Ports];
  logic [31:0] head_id[Ports], last_id[Ports];
  logic err_overflow[Ports], err_beat[Ports], err_packet[Ports], err_grant[Ports];

  for (genvar p = 0; p < Ports; p++) begin : port
    vcup dut (
        .clk(clk & enable[p]),
        .rst,
        .cfg_table_cycles,
        .cfg_analysis_cycles,
        .cfg_buffer_flits,
        .cfg_node,
        .cfg_table,
        .in_head,
        .in_tail,
        .in_kind,
        .in_tree,
        .in_flits,
        .in_src,
        .in_id,
        .req_valid(req_valid[p]),
        .req_dirs(req_dirs[p]),
        .req_pe(req_pe[p]),
        .req_pegroup(req_pegroup[p]),
        .grant_valid,
        .grant_target,
        .grant_cycles,
        .free_valid(free_valid[p]),
        .free_flits(free_flits[p]),
        .occupancy(occupancy[p]),
        .head_stage(head_stage[p]),
        .head_id(head_id[p]),
        .last_stage(last_stage[p]),
        .last_id(last_id[p]),
        .err_overflow(err_overflow[p]),
        .err_beat(err_beat[p]),
        .err_packet(err_packet[p]),
        .err_grant(err_grant[p])
    );
  end

  // One line's fields: the model's cycle, the port, the inputs at its edge, the outputs after it.
  longint cycle;
  int p, i_head, i_tail, i_kind, i_tree, i_flits, i_src, i_grant, i_target, i_cycles;
  logic [31:0] i_id, o_head_id, o_last_id;
  int o_req_valid, o_req_dirs, o_req_pe, o_req_pegroup, o_free_valid, o_free_flits, o_occupancy;
  int o_head_stage, o_last_stage, o_err_overflow, o_err_beat, o_err_packet, o_err_grant;
  int differences = 0;

  task automatic expect_output(string name, logic [31:0] here, logic [31:0] model);
    if (here !== model) begin
      differences++;
      $display("cycle %0d port %0d: %s: model %0h, here %0h", cycle, p, name, model, here);
    end
  endtask

  task automatic compare_outputs();
    expect_output("req_valid", 32'(req_valid[p]), 32'(o_req_valid));
    expect_output("free_valid", 32'(free_valid[p]), 32'(o_free_valid));
    expect_output("occupancy", 32'(occupancy[p]), 32'(o_occupancy));
    expect_output("head_stage", 32'(head_stage[p]), 32'(o_head_stage));
    expect_output("head_id", head_id[p], o_head_id);
    expect_output("last_stage", 32'(last_stage[p]), 32'(o_last_stage));
    expect_output("last_id", last_id[p], o_last_id);
    expect_output("err_overflow", 32'(err_overflow[p]), 32'(o_err_overflow));
    expect_output("err_beat", 32'(err_beat[p]), 32'(o_err_beat));
    expect_output("err_packet", 32'(err_packet[p]), 32'(o_err_packet));
    expect_output("err_grant", 32'(err_grant[p]), 32'(o_err_grant));
    if (o_req_valid != 0) begin
      expect_output("req_dirs", 32'(req_dirs[p]), 32'(o_req_dirs));
      expect_output("req_pe", 32'(req_pe[p]), 32'(o_req_pe));
      expect_output("req_pegroup", 32'(req_pegroup[p]), 32'(o_req_pegroup));
    end
    if (o_free_valid != 0) expect_output("free_flits", 32'(free_flits[p]), 32'(o_free_flits));
  endtask

  initial begin
    string file, line;
    int fd, edges = 0, table_cycles, analysis_cycles, buffer_flits, node;
    bit configured = 0;
    logic [Ports-1:0] reset_done = '0;
    if (!$value$plusargs("replay=%s", file)) file = "vcup.replay";
    fd = $fopen(file, "r");
    if (fd == 0) $fatal(1, "cannot open the replay file %s", file);
    while ($fgets(line, fd) != 0) begin
      if (line.len() == 0 || line.substr(0, 0) == "#") continue;
      if (!configured) begin
        if ($sscanf(line, "%d %d %d %d %h", table_cycles, analysis_cycles, buffer_flits, node,
                    cfg_table) != 5)
          $fatal(1, {"%s: the first line must be cfg_table_cycles cfg_analysis_cycles ",
                     "cfg_buffer_flits cfg_node cfg_table: %s"}, file, line);
        cfg_table_cycles = table_cycles[3:0];
        cfg_analysis_cycles = analysis_cycles[3:0];
        cfg_buffer_flits = buffer_flits[6:0];
        cfg_node = node[15:0];
        configured = 1;
        continue;
      end
      if ($sscanf(line, "%d %d %d %d %d %d %d %d %h %d %d %d %d %d %d %d %d %d %d %d %h %d %h %d %d %d %d",
                  cycle, p, i_head, i_tail, i_kind, i_tree, i_flits, i_src, i_id, i_grant,
                  i_target, i_cycles, o_req_valid, o_req_dirs, o_req_pe, o_req_pegroup,
                  o_free_valid, o_free_flits, o_occupancy, o_head_stage, o_head_id, o_last_stage,
                  o_last_id, o_err_overflow, o_err_beat, o_err_packet, o_err_grant) != 27)
        $fatal(1, "%s: a line that is not 27 fields: %s", file, line);
      if (p < 0 || p >= Ports) $fatal(1, "%s: port %0d of a node with at most %0d", file, p, Ports);
      in_head = i_head[0];
      in_tail = i_tail[0];
      in_kind = i_kind[3:0];
      in_tree = i_tree[3:0];
      in_flits = i_flits[4:0];
      in_src = i_src[15:0];
      in_id = i_id;
      grant_valid = i_grant[0];
      grant_target = i_target[3:0];
      grant_cycles = i_cycles[15:0];
      rst = !reset_done[p];  // a port's first edge is its reset edge
      reset_done = reset_done | Ports'(1) << p;
      enable = Ports'(1) << p;
      #1 clk = 1'b1;
      #1 clk = 1'b0;
      compare_outputs();
      edges++;
    end
    $display("replayed %0d cycles of %s up to the model's cycle %0d: %0d outputs differ", edges,
             file, cycle, differences);
    if (differences != 0) $fatal(1, "the outputs differ from the model's");
    $finish;
  end
endmodule
